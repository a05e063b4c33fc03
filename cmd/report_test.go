package cmd

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"github.com/podflow/podflow/tools/benchgen/gen"
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

// headless runs Chromium on page with args (--dump-dom, --screenshot=…)
// in a profile of its own, failing on an error the page's scripts log.
func headless(t *testing.T, bin, dir, page string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	profile, _ := os.MkdirTemp(dir, "profile")
	c := exec.CommandContext(ctx, bin, append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + profile,
		"--enable-logging=stderr", "--v=0"}, append(args, page)...)...)
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
	return stdout.String()
}

// TestReportBrowser opens the report in headless Chromium: the DOM it
// builds (escaped log text; the trouble first; failed pods red, recovered
// ones yellow; a chart per node whose zoom redraws the axis and the bars),
// and a screenshot to look at (its path is logged: go test -v -run
// TestReportBrowser ./cmd/).
func TestReportBrowser(t *testing.T) {
	bin, err := chromium()
	if err != nil {
		t.Fatalf("the HTML report needs a headless browser to test: %v", err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "report.html")
	if code, errOut := runReport(t, checkCorpus+"07-twenty-pods.log", hostileLog(t, dir), checkCorpus+"02-image-pull-failure.log",
		checkCorpus+"04-sandbox-failure.log", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	dom := headless(t, bin, dir, "file://"+out, "--dump-dom")
	if n := strings.Count(dom, `<g class="pod"`); n != 23 {
		t.Errorf("dumped DOM has %d pod bar groups, want 23", n)
	}
	if strings.Contains(dom, "<script>alert") || !strings.Contains(dom, "web-&lt;script&gt;alert(1)&amp;&lt;b&gt;") {
		t.Errorf("hostile pod name reached the DOM unescaped")
	}
	if !strings.Contains(dom, "<svg") || !strings.Contains(dom, "Stalled at containers (container api, image)") {
		t.Errorf("dumped DOM lacks the chart or the diagnosis")
	}
	if !strings.Contains(dom, "<title>podflow: 1 of 23 pods in trouble (1 Stalled), 2 recovered</title>") {
		t.Errorf("title: %s", regexp.MustCompile(`<title>.*?</title>`).FindString(dom))
	}
	attn, chart := strings.Index(dom, `id="attention"`), strings.Index(dom, `<section class="node"`)
	if attn < 0 || chart < attn || !strings.Contains(dom[attn:chart], "api-6f5b9d7c4-pl8wz") || !strings.Contains(dom[attn:chart], "payments-7b4d9c8f6-q9zrt") {
		t.Errorf("the page does not lead with the failed and the recovered pod")
	}
	if n := strings.Count(dom, `<section class="node"`); n != 4 {
		t.Errorf("%d node charts, want 4 (one per node)", n)
	}
	for name, health := range map[string]string{"api-6f5b9d7c4-pl8wz": "failed", "payments-7b4d9c8f6-q9zrt": "recovered", "batch-worker-6c8d5f12-30ee6": "recovered", "batch-worker-6c8d5f01-02102": "ok"} {
		if !regexp.MustCompile(`data-health="` + health + `">\s*<title>default/` + name).MatchString(dom) {
			t.Errorf("%s is not drawn as %s", name, health)
		}
	}

	// Zoomed by the link's #zoom=: the script redraws that node's axis at
	// a finer step and moves its bars.
	node := regexp.MustCompile(`<section class="node" id="(node-\d+)">\s*<h3>kb-node-many20`).FindStringSubmatch(dom)
	if node == nil {
		t.Fatal("no chart for kb-node-many20")
	}
	section := func(dom string) string {
		i := strings.Index(dom, `id="`+node[1]+`"`)
		j := strings.Index(dom[i:], "</section>")
		return dom[i : i+j]
	}
	whole := section(dom)
	zoomed := section(headless(t, bin, dir, "file://"+out+"#zoom="+node[1]+":1000:3000", "--dump-dom"))
	if !strings.Contains(zoomed, ">+1.5s</text>") || strings.Contains(whole, ">+1.5s</text>") {
		t.Errorf("the zoomed axis has no +1.5s mark (or the whole one has):\n%.600s", zoomed[strings.Index(zoomed, `<g class="axis">`):])
	}
	bar := regexp.MustCompile(`<rect class="bar st-done" x="(-?[0-9.]+)"[^>]*data-a="(\d+)"`)
	if a, b := bar.FindStringSubmatch(whole), bar.FindStringSubmatch(zoomed); a == nil || b == nil || a[1] == b[1] || a[2] != b[2] {
		t.Errorf("zoom did not move the bars: %v → %v", a, b)
	}

	shot := filepath.Join(os.TempDir(), "podflow-report-browser.png")
	headless(t, bin, dir, "file://"+out, "--hide-scrollbars", "--window-size=1300,1600", "--screenshot="+shot)
	if st, err := os.Stat(shot); err != nil || st.Size() < 10000 {
		t.Errorf("no screenshot: %v", err)
	}
	t.Logf("screenshot: %s", shot)
}

// TestReportOfBigInputOpensFast: the report of a large log draws only its
// worst pods and opens in a browser in seconds. PODFLOW_REPORT_BIG names
// the log (bench-data/kubelet-1g.log: make bench-data); without it the
// test generates one of 40 MiB (some 4,000 pods) from the corpus, as make
// bench-data does.
func TestReportOfBigInputOpensFast(t *testing.T) {
	bin, err := chromium()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	big := os.Getenv("PODFLOW_REPORT_BIG")
	if big == "" {
		c, err := gen.LoadCorpus(filepath.Join("..", "testdata", "corpus", "v1.36.3"))
		if err != nil {
			t.Fatal(err)
		}
		big = filepath.Join(dir, "kubelet.log")
		f, err := os.Create(big)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := gen.Generate(c, f, 40<<20, 1); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "report.html")
	if code, errOut := runReport(t, big, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	st, _ := os.Stat(out)
	start := time.Now()
	dom := headless(t, bin, dir, "file://"+out, "--dump-dom")
	took := time.Since(start)
	t.Logf("%s: a page of %d bytes, open in %s", big, st.Size(), took)
	if st.Size() > 10<<20 || took > 20*time.Second {
		t.Errorf("the page is %d bytes and took %s to open", st.Size(), took)
	}
	if n := strings.Count(dom, `<g class="pod"`); n > 300 || !strings.Contains(dom, "more pods not drawn") {
		t.Errorf("%d pods drawn, and no summary of the rest", n)
	}
}

// A stalled pod's details say what it waits on, as describe does.
func TestReportSaysWaitingOn(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.html")
	code, errOut := runReport(t, corpus+"v1.36.3/02-image-pull-failure.log", "-o", out)
	html, err := os.ReadFile(out)
	if code != 0 || err != nil || !strings.Contains(string(html), "Waiting on the pull of image docker.io/library/nginx:1.27.99 for container api, backing off") {
		t.Errorf("exit %d (%s, %v); the report does not say what api-6f5b9d7c4-pl8wz waits on", code, errOut, err)
	}
}
