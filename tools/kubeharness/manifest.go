package main

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"
)

// writeManifest puts one block per version into MANIFEST.md between
// kubeharness markers, replacing the rows of the scenarios just run and
// keeping the others, so a partial run (-only) leaves the rest alone.
func writeManifest(path, api string, results []*runResult) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("manifest: %w", err)
	}
	byVersion := map[string][]*runResult{}
	for _, r := range results {
		byVersion[r.version] = append(byVersion[r.version], r)
	}
	doc := string(old)
	vs := make([]string, 0, len(byVersion))
	for v := range byVersion {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	for _, v := range vs {
		rs := byVersion[v]
		sort.Slice(rs, func(i, j int) bool { return rs[i].sc.Name < rs[j].sc.Name })
		begin, end := "<!-- kubeharness "+v+" begin -->", "<!-- kubeharness "+v+" end -->"
		rows := map[string]string{}
		var order []string
		if i := strings.Index(doc, begin); i >= 0 {
			if j := strings.Index(doc, end); j > i {
				for _, sec := range strings.Split(doc[i+len(begin):j], "\n#### ")[1:] {
					name := strings.SplitN(sec, "\n", 2)[0]
					rows[name] = "#### " + strings.TrimRight(sec, "\n") + "\n"
					order = append(order, name)
				}
				doc = doc[:i] + doc[j+len(end):]
			}
		}
		for _, r := range rs {
			if _, ok := rows[r.file]; !ok {
				order = append(order, r.file)
			}
			rows[r.file] = row(r, api)
		}
		sort.Strings(order)
		var b bytes.Buffer
		b.WriteString(begin + "\n")
		fmt.Fprintf(&b, "### %s (kubeharness)\n\n", v)
		for _, name := range order {
			b.WriteString("\n" + rows[name])
		}
		b.WriteString(end)
		doc = strings.TrimRight(doc, "\n") + "\n\n" + b.String() + "\n"
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}

func row(r *runResult, api string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#### %s\n\n", r.file)
	format := "klog text"
	if r.sc.LogFormat == "json" {
		format = "JSON (`logging.format: json`)"
	}
	fmt.Fprintf(&b, "- kubelet %s, %s, -v=%d; %d bytes, %d lines; API server %s; node `%s`, namespace `%s`\n",
		r.version, format, r.sc.Verbosity, r.bytes, r.lines, api, r.node, r.ns)
	fmt.Fprintf(&b, "- scenario file: `tools/kubeharness/scenarios/%s.yaml`\n", r.sc.Name)
	fmt.Fprintf(&b, "- story: %s\n", strings.Join(strings.Fields(r.sc.Story), " "))
	fmt.Fprintf(&b, "- kubelet command line: `%s`\n", strings.Join(r.cmdline, " "))
	fmt.Fprintf(&b, "- kubelet started %s; driver actions (UTC): %s\n", r.started.Format("2006-01-02T15:04:05.000Z"), strings.Join(r.actions, "; "))
	if len(r.figures) > 0 {
		fmt.Fprintf(&b, "- the kubelet's own figures (Observed pod startup duration): %s\n", strings.Join(r.figures, "; "))
	} else {
		b.WriteString("- the kubelet logged no \"Observed pod startup duration\"\n")
	}
	return b.String()
}
