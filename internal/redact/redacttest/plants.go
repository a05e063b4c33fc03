// Package redacttest holds the secrets and identifying values that
// --redact's tests plant in logs, each in the words a log carries it in.
package redacttest

import "strings"

// Plant is one kind of value: Text as a log line has it, and the values
// in it that must not survive, whole or in part: the parts that say
// something (a host's own labels, not "registry."; a token, not its
// provider's prefix; a password, not a user name cut before it).
type Plant struct {
	Kind    string
	Text    string
	Secrets []string
}

// Plants are the kinds planted (at least 40).
var Plants = []Plant{
	{"ipv4", "peer 10.77.31.204 refused", []string{"10.77.31.204"}},
	{"ipv4 with port", "dial tcp 172.29.18.66:6443: i/o timeout", []string{"172.29.18.66"}},
	{"ipv6 full", "from 2001:db8:7c1e:4a2b:9f3d:11aa:2bc4:8e71 reset", []string{"2001:db8:7c1e:4a2b:9f3d:11aa:2bc4:8e71"}},
	{"ipv6 compressed", "route via fd7a:115c:a1e0::3b9d failed", []string{"fd7a:115c:a1e0::3b9d"}},
	{"ipv6 bracketed", "Get https://[fe80::9a2f:31ff:fe4c:77d1]:10250/healthz", []string{"fe80::9a2f:31ff:fe4c:77d1"}},
	{"fqdn in a DNS error", "dial tcp: lookup db7.zqvxprod.example.net on 10.96.3.71:53: no such host", []string{"zqvxprod.example.net", "10.96.3.71"}},
	{"fqdn in a url", `Get "https://vault.qmrtzk.corp:8200/v1/sys/health": EOF`, []string{"qmrtzk.corp"}},
	{"private registry", "image registry.kwlpxq.io/team/app:v3 pulled", []string{"kwlpxq.io"}},
	{"registry with port", "pull harbor.pqztwv.example.com:5443/proj/img:1", []string{"pqztwv.example.com"}},
	{"cloud node name", "node ip-10-42-7-119.eu-west-1.compute.internal not ready", []string{"ip-10-42-7-119", "10-42-7-119"}},
	{"cluster service name", "connect to etcd-2.xkvmrq.svc.cluster.local:2379", []string{"xkvmrq"}},
	{"bare fqdn", "upstream api.zrqplm.example.org answered 503", []string{"zrqplm.example.org"}},
	{"url userinfo with password", "clone https://deployer:Zk9TopSecretPW77@git.qlmxvz.example.org/repo.git", []string{"Zk9TopSecretPW77", "qlmxvz.example.org"}},
	{"url userinfo without password", "fetch https://ghtok4Rz8QvN2pLmY7xW@code.vxzqkm.example.io/org/repo", []string{"ghtok4Rz8QvN2pLmY7xW", "vxzqkm.example.io"}},
	{"image reference credentials", "image robotqz:Pw7hJk2LmN9q@registry.tvqzmk.io/app:v1", []string{"Pw7hJk2LmN9q", "tvqzmk.io"}},
	{"docker config auth", `config {"auths":{"registry.wqxzpk.io":{"auth":"cm9ib3Q6c2VjcmV0cGFzc3dvcmQxMjM="}}}`, []string{"cm9ib3Q6c2VjcmV0cGFzc3dvcmQxMjM", "wqxzpk.io"}},
	{"bearer header", "Authorization: Bearer Qm9vYmF6ZW5kZXJ4eXo3Nzc4OQ", []string{"Qm9vYmF6ZW5kZXJ4eXo3Nzc4OQ"}},
	{"basic auth header", "Authorization: Basic YWRtaW46aHVudGVyMlNlY3JldA==", []string{"YWRtaW46aHVudGVyMlNlY3JldA"}},
	{"bearer in an error", "token rejected: bearer abcd7f3kLmQ9xyzW", []string{"abcd7f3kLmQ9xyzW"}},
	{"jwt", "token eyJhbGciOiJSUzI1NiIsImtpZCI6InF6In0.eyJzdWIiOiJzeXN0ZW06c2EifQ.Zm9vYmFyYmF6cXV4c2lnbmF0dXJl expired", []string{"eyJhbGciOiJSUzI1NiIsImtpZCI6InF6In0", "eyJzdWIiOiJzeXN0ZW06c2EifQ", "Zm9vYmFyYmF6cXV4c2lnbmF0dXJl"}},
	{"aws access key id", "aws_access_key_id=AKIAQZ7XK2M4N5P6R7TB", []string{"AKIAQZ7XK2M4N5P6R7TB"}},
	{"aws secret access key", "aws_secret_access_key=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", []string{"wJalrXUtnFEMIqK7MDENGqbPxRfiCYzq8Lm3Nv9X"}},
	{"github token", "push with ghp_R8kQz2Lm7Nv4Xw9Tp3Yb6Hc1Jd5Fg0Sa2Ue8 denied", []string{"ghp_R8kQz2Lm7Nv4Xw9Tp3Yb6Hc1Jd5Fg0Sa2Ue8"}},
	{"github fine-grained token", "use github_pat_11AQZX7KY0abcDEFghiJKL_mnoPQRstuVWXyz0123456789 now", []string{"11AQZX7KY0abcDEFghiJKL_mnoPQRstuVWXyz0123456789"}},
	{"gitlab token", "with glpat-Xq7zR2mK9vL4nT8wP3bY ok", []string{"glpat-Xq7zR2mK9vL4nT8wP3bY"}},
	{"slack bot token", "notify xoxb-Zq29Xk48Lm-7461Rw28Tp-QzXr8KmL2nV7pT4wY9bH failed", []string{"xoxb-Zq29Xk48Lm-7461Rw28Tp-QzXr8KmL2nV7pT4wY9bH"}},
	{"stripe key", "charge sk_live_51QzXr8KmL2nV7pT4wY9bHc3 declined", []string{"51QzXr8KmL2nV7pT4wY9bHc3"}},
	{"google api key", "maps AIzaSyQ7xK2mL9nR4vT8wP3bY6cH1jD5fG0sA2u quota", []string{"AIzaSyQ7xK2mL9nR4vT8wP3bY6cH1jD5fG0sA2u"}},
	{"npm token", "publish npm_Qz7Xk2mL9nR4vT8wP3bY6cH1jD5fG0sA2uE8 failed", []string{"npm_Qz7Xk2mL9nR4vT8wP3bY6cH1jD5fG0sA2uE8"}},
	{"vault token", "vault hvs.CAESIQz7Xk2mL9nR4vT8wP3bY6cH1jD5fG0s denied", []string{"hvs.CAESIQz7Xk2mL9nR4vT8wP3bY6cH1jD5fG0s"}},
	{"password flag with a space", "exec mysql --password Qv7rT2kLq9mX4 -h db", []string{"Qv7rT2kLq9mX4"}},
	{"password flag with =", "exec psql --db-password=Hk3nV8qZ2rW6 ok", []string{"Hk3nV8qZ2rW6"}},
	{"password=", "connect password=Zx9wV3kR7mQ2 failed", []string{"Zx9wV3kR7mQ2"}},
	{"client secret in json", `oidc {"client_secret":"Cs8Kq2Lm7Nv4Xw9T"}`, []string{"Cs8Kq2Lm7Nv4Xw9T"}},
	{"environment value", "command [sh -c run] FEATURE_SEED=qzv81kxmwt ok", []string{"qzv81kxmwt"}},
	{"environment password", "env DB_PASSWORD=Ev7kQ2mZ9xR4 set", []string{"Ev7kQ2mZ9xR4"}},
	{"struct environment", "Env:[]EnvVar{EnvVar{Name:APP_SALT,Value:Sv4kR8mQ2zX7,ValueFrom:nil,},}", []string{"Sv4kR8mQ2zX7"}},
	{"json environment", `"env":[{"name":"TOKEN_SALT","value":"Jv3kR9mQ7zX2"}]`, []string{"Jv3kR9mQ7zX2"}},
	{"private key", `key -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAqz7Xk2mL9nR4vT8wP3bY6cH1jD5fG0sA2uE8\n-----END RSA PRIVATE KEY----- loaded`, []string{"MIIEowIBAAKCAQEAqz7Xk2mL9nR4vT8wP3bY6cH1jD5fG0sA2uE8"}},
	{"kubeconfig token", "kubeconfig token: kc7Qz2Lm9Nv4Xw8Tp3Yb", []string{"kc7Qz2Lm9Nv4Xw8Tp3Yb"}},
	{"kubeconfig client key data", "client-key-data: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2Z0lCQURBTkJn", []string{"LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2Z0lCQURBTkJn"}},
	{"api key header", "X-Api-Key: Ak7Qz2Lm9Nv4Xw8T", []string{"Ak7Qz2Lm9Nv4Xw8T"}},
	{"cookie", "Cookie: session=Ck8Qz2Lm7Nv4Xw9Tp3", []string{"Ck8Qz2Lm7Nv4Xw9Tp3"}},
	{"azure account key", "conn AccountKey=Az7Xk2mL9nR4vT8wP3bY6cH1jD5fG0sA2uE8qR3tY==;", []string{"Az7Xk2mL9nR4vT8wP3bY6cH1jD5fG0sA2uE8qR3tY"}},
	{"long hex secret", "apikey 9f3a7c2e1b8d4f6a0c5e9b7d3a1f8c2e4b6d9a0f", []string{"9f3a7c2e1b8d4f6a0c5e9b7d3a1f8c2e4b6d9a0f"}},
	{"hostname override", "FLAG: --hostname-override=wrkqz81vn", []string{"wrkqz81vn"}},
	// The forms issue #28 found leaking.
	{"single-label host in dial", "dial tcp qzvxdb01:5432: connect: connection refused", []string{"qzvxdb01"}},
	{"describe env password", "      MYSQL_ROOT_PASSWORD:  Mq7rT2kPx9", []string{"Mq7rT2kPx9"}},
	{"describe env pass", "      REDIS_PASS:  rp4Kx8vQz2", []string{"rp4Kx8vQz2"}},
	{"describe cookie", "      Cookie:  Ck3Pq8mZ2wXv", []string{"Ck3Pq8mZ2wXv"}},
	{"pass key", "connect redis pass=Pz8mK3qW7x failed", []string{"Pz8mK3qW7x"}},
	{"a _pass key", "config db_pass: Dq5nW8kR2m loaded", []string{"Dq5nW8kR2m"}},
	{"\\u0022-escaped json key", `body {\u0022password\u0022:\u0022Uq7wE3rT9k\u0022}`, []string{"Uq7wE3rT9k"}},
	{"url-encoded password", "POST /login?user=bob&password%3DEnc9Kq2mW7x%26next=1", []string{"Enc9Kq2mW7x"}},
	{"struct env value with a comma", "Env:[]EnvVar{EnvVar{Name:DSN,Value:mode=rw,pw=Cm4Vq8zK2x,ValueFrom:nil,},}", []string{"Cm4Vq8zK2x"}},
	{"email local part", "notify qz.martavkl@example.org failed", []string{"qz.martavkl"}},
	{"azure account name", "conn DefaultEndpointsProtocol=https;AccountName=qzvstor88;EndpointSuffix=core.windows.net", []string{"qzvstor88"}},
	{"json env reversed", `"env":[{"value":"Rv8kQ3mZ7x","name":"SALT"}]`, []string{"Rv8kQ3mZ7x"}},
}

// Windows are the 6-byte runs of the plants' secrets: none may be in a
// redacted output unless it was there without the plants.
func Windows() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range Plants {
		for _, s := range p.Secrets {
			for i := 0; i+6 <= len(s); i++ {
				if w := s[i : i+6]; !seen[w] {
					seen[w] = true
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// Leaks returns the windows found in out and not in base.
func Leaks(out, base string) []string {
	var l []string
	for _, w := range Windows() {
		if strings.Contains(out, w) && !strings.Contains(base, w) {
			l = append(l, w)
		}
	}
	return l
}
