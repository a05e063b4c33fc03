package redact

import (
	"fmt"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	const id64 = "50226eef163e7542981f5946b469d2c1b9fc76907de33e9d3f8f1e69295674f3"
	tests := []struct {
		name, in, want string
	}{
		{"plain kubelet line", `"SyncLoop ADD" source="api" pods=["default/web-7d9f8c6b5-x2kqp"]`, `"SyncLoop ADD" source="api" pods=["default/web-7d9f8c6b5-x2kqp"]`},
		{"ipv4", `IPs=["192.168.192.168"] podIP=10.0.0.7`, `IPs=["ip-1"] podIP=ip-2`},
		{"ipv4 with port and cidr", `dial tcp 10.96.0.1:443: i/o timeout; cidr 10.244.0.0/16`, `dial tcp ip-1:443: i/o timeout; cidr ip-2/16`},
		{"not an ipv4", `version 1.2.3.4.5 and v10.0.0.1x and 999.1.1.1`, `version 1.2.3.4.5 and v10.0.0.1x and 999.1.1.1`},
		{"ipv6", `addr [fe80::1%eth0]:10250 and 2001:db8::7 then ::1`, `addr [ip-1%eth0]:10250 and ip-2 then ip-3`},
		{"not ipv6", `06:08:06.545 aa:bb:cc:dd:ee:ff std::string ::error::x`, `06:08:06.545 aa:bb:cc:dd:ee:ff std::string ::error::x`},
		{"bearer", `Authorization: Bearer abcdef123456.xyz`, `Authorization: Bearer token-1`},
		{"basic auth header", `authorization="Basic dXNlcjpwYXNz"`, `authorization="Basic token-1"`},
		{"jwt", `token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ.c2lnbmF0dXJl here`, `token token-1 here`},
		{"keyed secret", `password=hunter2 api_key: "sk_live_1" clientSecret=abc`, `password=token-1 api_key: "token-2" clientSecret=token-3`},
		{"flag lines stay", `FLAG: --authentication-token-webhook="false"`, `FLAG: --authentication-token-webhook="false"`},
		{"long hex", `key 0123456789abcdef0123456789abcdef01 end`, `key token-1 end`},
		{"digest stays", `image@sha256:` + id64, `image@sha256:` + id64},
		{"base64 secret", `data aGVsbG8gd29ybGQgdGhpcyBpcyBhIHNlY3JldCBrZXk9 end`, `data token-1 end`},
		{"uuid and paths stay", `/var/lib/kubelet/pods/0380ddec-5d83-4b90-989e-e5515152b65d/volumes/kubernetes.io~projected/kube-api-access-x2kqp`, `/var/lib/kubelet/pods/0380ddec-5d83-4b90-989e-e5515152b65d/volumes/kubernetes.io~projected/kube-api-access-x2kqp`},
		{"url credentials", `pull https://robot:s3cr3t@registry.corp.example:5000/team/app:v1`, `pull https://cred-1@host-1:5000/team/app:v1`},
		{"image ref credentials", `image="bob:pa55@registry.corp.example/app:v2"`, `image="cred-1@host-1/app:v2"`},
		{"public registry stays", `image="docker.io/library/nginx:1.27.3" and registry.k8s.io/pause:3.10`, `image="docker.io/library/nginx:1.27.3" and registry.k8s.io/pause:3.10`},
		{"private registry masked", `image="registry.acme.io/payments/api:1.4"`, `image="host-1/payments/api:1.4"`},
		{"url host", `Get "https://api.prod.acme.io:6443/api/v1/nodes": EOF; https://localhost:10250/healthz`, `Get "https://host-1:6443/api/v1/nodes": EOF; https://localhost:10250/healthz`},
		{"internal names", `resolve ip-10-0-1-2.ec2.internal and db.payments.svc`, `resolve host-1 and host-2`},
		{"env values", `command [sh -c env] DB_PASSWORD=hunter2 MODE="fast mode" HOME=/root`, `command [sh -c env] DB_PASSWORD=token-1 MODE=value-1 HOME=value-2`},
		{"struct env", `Env:[]EnvVar{EnvVar{Name:API_KEY,Value:k-123,ValueFrom:nil,},}`, `Env:[]EnvVar{EnvVar{Name:API_KEY,Value:value-1,ValueFrom:nil,},}`},
		{"json env", `"env":[{"name":"FOO","value":"bar baz"}]`, `"env":[{"name":"FOO","value":"value-1"}]`},
		{"same value same mask", `10.0.0.1 10.0.0.2 10.0.0.1`, `ip-1 ip-2 ip-1`},
		{"masks stay", `ip-0a1b2c3d4e5f6071 host-0000000000000000 token-ffffffffffffffff FOO=value-0123456789abcdef01234567`, `ip-1 host-1 token-1 FOO=value-1`},
		{"cut credentials", `reference "x": robot:s3cretPass@… — 3 failed attempts`, `reference "x": cred-1@… — 3 failed attempts`},
		{"hostname override learnt", `FLAG: --hostname-override="kb-node-1" then node="kb-node-1"`, `FLAG: --hostname-override="host-1" then node="host-1"`},
		{"absolute path stays", `/tmp/TestRedact1797958911/001/node/kubelet.log`, `/tmp/TestRedact1797958911/001/node/kubelet.log`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New()
			got := r.Text(tt.in)
			if ordinal(got) != tt.want {
				t.Errorf("Text(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := r.Text(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

func TestHostsAndKeep(t *testing.T) {
	const id64 = "50226eef163e7542981f5946b469d2c1b9fc76907de33e9d3f8f1e69295674f3"
	r := New()
	if got := r.Host("kb-node-happy"); !IsMask(got) || r.Reveal(got) != "kb-node-happy" {
		t.Fatalf("Host = %q", got)
	}
	if got := r.Host("worker-2"); !IsMask(got) || got == r.Host("kb-node-happy") {
		t.Fatalf("Host = %q", got)
	}
	if got := r.Host("localhost"); got != "localhost" {
		t.Errorf("loopback masked: %q", got)
	}
	r.Keep(id64)
	tests := []struct{ in, want string }{
		{`node="kb-node-happy"`, `node="host-1"`},
		{`kube-apiserver-kb-node-happy`, `kube-apiserver-host-1`},
		{`kb-node-happy.example.org`, `host-3`},
		{`not-kb-node-happyx or xkb-node-happy`, `not-kb-node-happyx or xkb-node-happy`},
		{`logs/worker-2/kubelet.log`, `logs/host-2/kubelet.log`},
		{`containerID=` + id64, `containerID=` + id64},
	}
	for _, tt := range tests {
		if got := r.Text(tt.in); ordinalAs(got, r) != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var nilR *Redactor
	if nilR.Text("10.0.0.1") != "10.0.0.1" || nilR.Host("n") != "n" {
		t.Error("nil Redactor changed text")
	}
}

func TestWalk(t *testing.T) {
	type verdict string
	type inner struct {
		Node  string
		Msg   string
		IDs   []string
		State verdict
	}
	type outer struct {
		Items []inner
		Ptr   *inner
		Attrs map[string]string
		Any   map[string]any
	}
	v := &outer{
		Items: []inner{{Node: "n1", Msg: "on n1 at 10.1.1.1", IDs: []string{"10.1.1.1"}, State: "10.2.2.2"}},
		Ptr:   &inner{Node: "n2", Msg: "from 10.1.1.1"},
		Attrs: map[string]string{"k": "Bearer abcdefgh"},
		Any:   map[string]any{"p": &inner{Msg: "10.3.3.3"}},
	}
	r := New()
	r.Walk(v, func(f string) Role {
		if f == "inner.Node" {
			return RoleHost
		}
		return RoleText
	})
	want := "host-1 on host-1 at ip-1 ip-1 10.2.2.2 host-2 from ip-1 Bearer token-1 ip-2"
	got := strings.Join([]string{v.Items[0].Node, v.Items[0].Msg, v.Items[0].IDs[0], string(v.Items[0].State), v.Ptr.Node, v.Ptr.Msg, v.Attrs["k"], v.Any["p"].(*inner).Msg}, " ")
	if got = ordinal(got); got != want {
		t.Errorf("Walk:\n got %q\nwant %q", got, want)
	}
}

// ordinal renumbers the masks in s by their order in s (host-1, host-2,
// ip-1, …), so that a test can say which values share a mask without
// knowing the hash.
func ordinal(s string) string { return ordinalAs(s, nil) }

// ordinalAs is ordinal with the host masks numbered by r's hosts in the
// order Host was first called for them (r may be nil).
func ordinalAs(s string, r *Redactor) string {
	seen := map[string]string{}
	n := map[string]int{}
	if r != nil {
		for _, h := range []string{"kb-node-happy", "worker-2"} {
			if m, ok := r.masks[KindHost+"\x00"+h]; ok {
				n[KindHost]++
				seen[m] = fmt.Sprintf("%s-%d", KindHost, n[KindHost])
			}
		}
	}
	return reMaskIn().ReplaceAllStringFunc(s, func(m string) string {
		if o, ok := seen[m]; ok {
			return o
		}
		kind := m[:strings.IndexByte(m, '-')]
		n[kind]++
		seen[m] = fmt.Sprintf("%s-%d", kind, n[kind])
		return seen[m]
	})
}

func BenchmarkText(b *testing.B) {
	line := `I1122 06:05:36.239146   25019 kuberuntime_manager.go:1645] "Determined the ip for pod after sandbox changed" IPs=["192.168.192.168"] pod="default/api-6f5b9d7c4-pl8wz"`
	r := New()
	r.Host("kb-node-pullfail")
	b.ReportAllocs()
	for b.Loop() {
		r.Text(line)
	}
}
