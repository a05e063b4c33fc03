package check

import (
	"strings"

	"github.com/podflow/podflow/timeline"
)

func (r Rules) selected(f *timeline.Flow) bool {
	if len(r.Namespaces) > 0 && !r.Namespaces[f.Pod.Namespace] {
		return false
	}
	if len(r.Pods) > 0 {
		ok := false
		for _, re := range r.Pods {
			// As get pods' -p: a pattern with a slash is matched against
			// namespace/name, and a pod's UID names it too.
			subject := f.Pod.Name
			if strings.Contains(re.String(), "/") {
				subject = f.Pod.Key()
			}
			if re.MatchString(subject) || f.Pod.UID != "" && re.String() == f.Pod.UID {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func (r Rules) ignored(f *timeline.Flow) bool {
	for _, re := range r.Ignore {
		if re.MatchString(f.Pod.Key()) {
			return true
		}
	}
	return false
}

// Select applies --pod, -n and --ignore.
func (r Rules) Select(items []timeline.Flow) (kept []timeline.Flow, ignored []string) {
	for i := range items {
		f := &items[i]
		if !r.selected(f) {
			continue
		}
		if r.ignored(f) {
			ignored = append(ignored, f.Pod.Key())
			continue
		}
		kept = append(kept, *f)
	}
	return kept, ignored
}
