package cmd

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func runReport(t *testing.T, args ...string) (int, string) {
	t.Helper()
	ioS, _, _, errOut := NewTestIO(false)
	ioS.InTTY = true
	code := Main(ioS, append([]string{"podflow", "report"}, args...))
	return code, errOut.String()
}

// hostileLog is 01-happy-path with the pod renamed to carry markup.
func hostileLog(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(checkCorpus + "01-happy-path.log")
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.ReplaceAll(b, []byte("web-7d9f8c6b5-x2kqp"), []byte("web-<script>alert(1)&<b>"))
	p := filepath.Join(dir, "hostile.log")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReportRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report.html")
	code, errOut := runReport(t, checkCorpus+"07-twenty-pods.log", hostileLog(t, dir), checkCorpus+"12-container-start-failure.log", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(out)
	html := string(b)
	if n := strings.Count(html, `<g class="pod"`); n != 22 {
		t.Errorf("%d pod bar groups, want 22", n)
	}
	if strings.Contains(html, "<script>alert") || !strings.Contains(html, "web-&lt;script&gt;alert(1)&amp;&lt;b&gt;") {
		t.Errorf("hostile pod name not escaped")
	}
	if regexp.MustCompile(`(?i)(src|href)=["']?(https?:)?//`).MatchString(html) || strings.Contains(html, "@import") {
		t.Errorf("report references an external asset")
	}
	for _, w := range []string{"Stalled at containers (container api, started)", "12-container-start-failure.log:803", "RunContainerError"} {
		if !strings.Contains(html, w) {
			t.Errorf("report lacks %q", w)
		}
	}
	if code, _ := runReport(t, checkCorpus+"01-happy-path.log", "--ignore", "("); code != ExitUsage {
		t.Errorf("bad --ignore: exit %d", code)
	}
}

// TestReportOfCompressedInput: the evidence lines of every pod are read
// back from gzip inputs as from the plain files (all of them in one
// forward pass; one pass from the start for each took minutes on a large
// log).
func TestReportOfCompressedInput(t *testing.T) {
	dir := t.TempDir()
	var plain, packed []string
	for _, name := range []string{"02-image-pull-failure", "05-crashloop-backoff", "10-init-container-crashloop", "12-container-start-failure"} {
		b, err := os.ReadFile(checkCorpus + name + ".log")
		if err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(b)
		zw.Close()
		p := filepath.Join(dir, name+".log")
		plain, packed = append(plain, p), append(packed, p+".gz")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p+".gz", gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The evidence sections (the bars' titles cut lines at a width that
	// the longer name moves).
	pre := regexp.MustCompile(`(?s)<pre.*?</pre>`)
	var html [2]string
	for i, in := range [][]string{plain, packed} {
		out := filepath.Join(dir, fmt.Sprint(i, ".html"))
		if code, errOut := runReport(t, append(in, "-o", out, "--year", "2026")...); code != 0 {
			t.Fatalf("%s: exit %d: %s", in, code, errOut)
		}
		b, _ := os.ReadFile(out)
		html[i] = strings.Join(pre.FindAllString(strings.ReplaceAll(string(b), ".log.gz", ".log"), -1), "\n")
	}
	// The raw lines show under the evidence of the pods.
	if n, raws := strings.Count(html[0], "<pre"), strings.Count(html[0], "\nE1122 ")+strings.Count(html[0], "\nI1122 "); n != 12 || raws != 12 {
		t.Fatalf("the plain report shows %d evidence lines and %d raw lines, want 12 of each", n, raws)
	}
	if html[0] != html[1] {
		t.Errorf("the reports of the plain and the gzip inputs differ")
	}
}

var (
	chromiumOnce sync.Once
	chromiumPath string
	chromiumErr  error
)

// chromium finds a headless browser, installing Debian's chromium once
// when it is missing and the test runs as root.
func chromium() (string, error) {
	chromiumOnce.Do(func() {
		for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(n); err == nil {
				chromiumPath = p
				return
			}
		}
		if os.Geteuid() != 0 {
			chromiumErr = fmt.Errorf("chromium is not installed and the test is not root, so it cannot install it: run apt-get install -y chromium")
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		var log bytes.Buffer
		for _, args := range [][]string{{"apt-get", "update"}, {"apt-get", "install", "-y", "--no-install-recommends", "chromium"}} {
			c := exec.CommandContext(ctx, args[0], args[1:]...)
			c.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
			c.Stdout, c.Stderr = &log, &log
			if err := c.Run(); err != nil {
				chromiumErr = fmt.Errorf("installing chromium failed (%s: %v):\n%s", strings.Join(args, " "), err, log.String())
				return
			}
		}
		chromiumPath, chromiumErr = exec.LookPath("chromium")
	})
	return chromiumPath, chromiumErr
}

func TestReportBrowser(t *testing.T) {
	bin, err := chromium()
	if err != nil {
		t.Fatalf("the HTML report needs a headless browser to test: %v", err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "report.html")
	if code, errOut := runReport(t, checkCorpus+"07-twenty-pods.log", hostileLog(t, dir), checkCorpus+"02-image-pull-failure.log", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+out)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		// Chromium logs page console messages as "INFO:CONSOLE:1] \"Uncaught …\"".
		if ll := strings.ToLower(l); strings.Contains(ll, "uncaught") || strings.Contains(ll, "console") {
			t.Errorf("browser console error: %s", l)
		}
	}
	dom := stdout.String()
	if n := strings.Count(dom, `<g class="pod"`); n != 22 {
		t.Errorf("dumped DOM has %d pod bar groups, want 22", n)
	}
	if strings.Contains(dom, "<script>alert") || !strings.Contains(dom, "web-&lt;script&gt;alert(1)&amp;&lt;b&gt;") {
		t.Errorf("hostile pod name reached the DOM unescaped")
	}
	if !strings.Contains(dom, "<svg") || !strings.Contains(dom, "Stalled at containers (container api, image)") {
		t.Errorf("dumped DOM lacks the chart or the diagnosis")
	}
}
