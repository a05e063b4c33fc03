package redact_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/redact/redacttest"
	"github.com/podflow/podflow/timeline"
)

// FuzzRedactPlanted plants a secret of every kind (redacttest.Plants) in
// random text at a random place, lengthens token-like secrets by a random
// run of letters and digits, cuts the line at a random byte as the engine
// cuts texts ("…"; with cut's top bits, in the middle as a diagnosis
// quotes a long reason, or hard-wraps the line and masks it as a record's
// lines), and checks that no 6-byte run of the secret survives
// Text (unless the random text had it itself), and that Text is
// idempotent.
func FuzzRedactPlanted(f *testing.F) {
	f.Add(`I1122 06:05:36.239146   25019 kuberuntime_manager.go:1645] "Failed" err="`, uint8(0), uint16(40), uint16(0), "")
	f.Add(`{"ts":1795328060266.843,"msg":"Error syncing pod","err":"`, uint8(16), uint16(9), uint16(120), "Zq9")
	f.Add(`time="2026-11-22T06:05:37.450112938Z" level=error msg="PullImage failed" error="`, uint8(22), uint16(200), uint16(95), "abc123XYZ")
	f.Add(`2026-11-22T06:03:25+0000 kb-node kubelet[21321]: E1122 "SyncLoop" pod="default/web"`, uint8(38), uint16(3), uint16(60), "")
	for i := range redacttest.Plants {
		f.Add("reason: ", uint8(i), uint16(8), uint16(8+len(redacttest.Plants[i].Text)/2), "7k")
		f.Add("reason: ", uint8(i), uint16(120), uint16(2<<14|130), "")                                // cut in the middle
		f.Add("reason: ", uint8(i), uint16(8), uint16(3<<14|(8+len(redacttest.Plants[i].Text)/2)), "") // wrapped
	}
	f.Fuzz(func(t *testing.T, base string, kind uint8, pos, cut uint16, grow string) {
		p := redacttest.Plants[int(kind)%len(redacttest.Plants)]
		text, secrets := p.Text, p.Secrets
		if g := alnum(grow, isHex(secrets[0])); g != "" && len(secrets) == 1 && tokenLike(secrets[0]) {
			s := secrets[0] + g
			text, secrets = strings.Replace(text, secrets[0], s, 1), []string{s}
		}
		at := int(pos) % (len(base) + 1)
		for at > 0 && at < len(base) && !utf8.RuneStart(base[at]) {
			at--
		}
		line := base[:at] + " " + text + " " + base[at:]
		r := redact.New()
		r.SetKey([]byte(base))
		var got string
		switch mode := cut >> 14; {
		case mode == 2:
			// Cut in the middle, as a diagnosis quotes a long reason
			// (its beginning and end): the flow is masked, then quoted.
			reason := strings.Repeat("x ", int(cut)%400) + line + strings.Repeat(" y", int(pos)%400)
			fl := &timeline.FlowList{Items: []timeline.Flow{{Verdict: timeline.VerdictFailed, Reason: reason,
				Diagnosis: "Failed at containers: " + timeline.DiagnosisText(reason)}}}
			redact.FlowList(r, fl)
			got = fl.Items[0].Diagnosis
		case mode == 3:
			// Hard-wrapped at a byte, read back as a record's lines.
			n := int(cut) % len(line)
			for n > 0 && !utf8.RuneStart(line[n]) {
				n--
			}
			line = line[:n] + "\n" + line[n:]
			got = string(r.Bytes([]byte(line)))
		default:
			if cut > 0 {
				n := int(cut) % len(line)
				for n > 0 && !utf8.RuneStart(line[n]) {
					n--
				}
				line = line[:n] + "…"
			}
			got = r.Text(line)
		}
		for _, s := range secrets {
			for i := 0; i+6 <= len(s); i++ {
				if w := s[i : i+6]; strings.Contains(got, w) && strings.Contains(line, w) && !strings.Contains(base, w) {
					t.Fatalf("%s: %q survives in\n%q\nfrom\n%q", p.Kind, w, got, line)
				}
			}
		}
		if again := r.Text(got); again != got && !strings.Contains(line, "\n") {
			t.Fatalf("not idempotent:\n%q\n%q", got, again)
		}
	})
}

func isHex(s string) bool { return strings.Trim(s, "0123456789abcdef") == "" }

// alnum is s's letters and digits (hex digits only, for a hex secret: a
// secret grows in its own alphabet).
func alnum(s string, hex bool) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < 40; i++ {
		if c := s[i]; c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || !hex && (c >= 'g' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// tokenLike: a secret of letters and digits whose rule takes any length.
func tokenLike(s string) bool {
	return strings.Trim(s, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-") == "" &&
		strings.ContainsAny(s, "0123456789") && len(s) >= 12
}
