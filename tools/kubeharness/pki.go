package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// pki is the control plane's certificates, made with crypto/x509 so the
// harness needs no openssl: a CA, the API server's serving cert, one client
// cert shared by the kubelets and the driver, and the service-account key.
type pki struct {
	dir                   string
	caCert, caKey         string
	serverCert, serverKey string
	clientCert, clientKey string
	saKey, saPub          string
}

func writePEM(path, typ string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600)
}

func newPKI(dir string) (*pki, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("pki dir: %w", err)
	}
	p := &pki{
		dir:    dir,
		caCert: filepath.Join(dir, "ca.crt"), caKey: filepath.Join(dir, "ca.key"),
		serverCert: filepath.Join(dir, "apiserver.crt"), serverKey: filepath.Join(dir, "apiserver.key"),
		clientCert: filepath.Join(dir, "kubelet.crt"), clientKey: filepath.Join(dir, "kubelet.key"),
		saKey: filepath.Join(dir, "sa.key"), saPub: filepath.Join(dir, "sa.pub"),
	}
	now := time.Now().Add(-time.Hour)
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("ca key: %w", err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kubeharness-ca"},
		NotBefore: now, NotAfter: now.Add(10 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("ca cert: %w", err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	if err := writePEM(p.caCert, "CERTIFICATE", caDER); err != nil {
		return nil, err
	}
	leaf := func(serial int64, cn string, org []string, usage x509.ExtKeyUsage, certPath, keyPath string) error {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return fmt.Errorf("key %s: %w", cn, err)
		}
		t := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: cn, Organization: org},
			NotBefore: now, NotAfter: now.Add(10 * 24 * time.Hour),
			KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
			ExtKeyUsage: []x509.ExtKeyUsage{usage},
		}
		if usage == x509.ExtKeyUsageServerAuth {
			t.IPAddresses = []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")}
			t.DNSNames = []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"}
		}
		der, err := x509.CreateCertificate(rand.Reader, t, ca, &key.PublicKey, caKey)
		if err != nil {
			return fmt.Errorf("cert %s: %w", cn, err)
		}
		kder, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			return fmt.Errorf("key %s: %w", cn, err)
		}
		if err := writePEM(certPath, "CERTIFICATE", der); err != nil {
			return err
		}
		return writePEM(keyPath, "EC PRIVATE KEY", kder)
	}
	if err := leaf(2, "kube-apiserver", nil, x509.ExtKeyUsageServerAuth, p.serverCert, p.serverKey); err != nil {
		return nil, err
	}
	// One identity for every kubelet and the driver: the API server runs
	// AlwaysAllow and no NodeRestriction, so the name only has to be valid.
	if err := leaf(3, "system:admin", []string{"system:masters"}, x509.ExtKeyUsageClientAuth, p.clientCert, p.clientKey); err != nil {
		return nil, err
	}
	sa, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("sa key: %w", err)
	}
	if err := writePEM(p.saKey, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(sa)); err != nil {
		return nil, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&sa.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("sa pub: %w", err)
	}
	if err := writePEM(p.saPub, "PUBLIC KEY", pub); err != nil {
		return nil, err
	}
	return p, nil
}

// kubeconfig writes a client-cert kubeconfig for the API server.
func (p *pki) kubeconfig(path, server string) error {
	s := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: harness
  cluster:
    server: %s
    certificate-authority: %s
users:
- name: kubelet
  user:
    client-certificate: %s
    client-key: %s
contexts:
- name: harness
  context: {cluster: harness, user: kubelet}
current-context: harness
`, server, p.caCert, p.clientCert, p.clientKey)
	return os.WriteFile(path, []byte(s), 0o600)
}
