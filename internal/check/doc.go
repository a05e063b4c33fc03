// Package check judges pods against the rules of `podflow check` and
// writes the verdicts in the forms CI reads.
//
// Judge takes the engine's FlowList, keeps the pods Rules select (--pod,
// -n, --ignore) and applies each rule asked for, in this order:
//
//	rules.go     fail-on (verdicts), max-startup, budget (per stage) and slo
//	startup.go   the figures they measure: PodStartup (end to end) and PodSLO
//	             (end to end less image pulls and init containers)
//	baseline.go  regression: per-stage p50/p90 against an earlier run
//	judge.go     Rules, Judge, and how a rule concludes pass, fail or unknown
//	             (the log's -v hides what it needs)
//
// The Result holds a RuleResult per rule and a PodResult per pod, whose
// Violations carry the evidence lines that show why. The outputs read only
// the Result: text.go (text and JSON), junit.go, github.go (workflow
// annotations) and markdown.go (the step summary); rank.go orders pods
// worst first for all of them. Command wiring (flags, the config file,
// files) stays in cmd/check.go.
package check
