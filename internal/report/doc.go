// Package report builds `podflow report`'s HTML page.
//
// Build turns the flows into Data, the page's model, and Write renders it
// with report.html.tmpl (one self-contained file: inline CSS, SVG and a
// script for zoom; html/template escapes everything from the log):
//
//	report.go    Build: the ranking (worst first), the heading, which pods
//	             are drawn in full (Input.MaxDrawn, DefaultMaxDrawn) and
//	             the attention list the page leads with
//	health.go    a pod's Health: failed (red), recovered after failed
//	             attempts (yellow), ok, other
//	findings.go  which node findings are the kubelet's routine start-up
//	             (kept quiet) and which lead the page
//	chart.go     a chart per node on its own time axis: bars with their
//	             times (for zoom), failure marks, and the pods not drawn
//	             summarised
package report
