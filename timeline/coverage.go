package timeline

import (
	"sort"

	"github.com/podflow/podflow/internal/catalog"
)

// CoverageRow counts one component version's pod-bearing messages.
type CoverageRow struct {
	Component    string `json:"component"`
	Version      string `json:"version"`
	PodBearing   int    `json:"podBearing"`
	Classified   int    `json:"classified"`
	ByMarker     int    `json:"byMarker"`
	Unclassified int    `json:"unclassified"`
}

// Coverage is the classification of the catalog's pod-bearing messages.
type Coverage struct {
	Rows []CoverageRow `json:"versions"`
	// Total counts distinct messages (one logged by many versions once).
	Total   CoverageRow   `json:"total"`
	ByClass map[Class]int `json:"byClass"`
	// Unclassified are the pod-bearing messages with neither a marker
	// nor a row, with the row SuggestClass proposes for each.
	Unclassified []UnclassifiedEntry `json:"unclassified"`
}

// UnclassifiedEntry is a message to classify and a proposed row.
type UnclassifiedEntry struct {
	Entry    *catalog.Entry `json:"-"`
	Versions string         `json:"versions"`
	Files    []string       `json:"files"`
	Suggest  Classification `json:"suggested"`
}

// CoverageComponents are the components classified, in order: the
// kubelet's versions before 1.11 (catalog.KubeletLegacy) are kept only
// to check old markers against.
var CoverageComponents = []string{catalog.Kubelet, catalog.Containerd, catalog.CRIO, catalog.KubeControllerManager}

// ComputeCoverage classifies every pod-bearing message of the catalog.
func ComputeCoverage(c *catalog.Catalog) Coverage {
	cov := Coverage{ByClass: map[Class]int{}, Total: CoverageRow{Component: "total"}}
	for _, comp := range CoverageComponents {
		versions := c.ComponentVersions(comp)
		rows := make([]CoverageRow, len(versions))
		for i, v := range versions {
			rows[i] = CoverageRow{Component: comp, Version: v}
		}
		for _, e := range c.Entries {
			if e.Component != comp || !e.PodBearing() {
				continue
			}
			cl, ok := ClassOf(e)
			cov.Total.PodBearing++
			if ok {
				cov.Total.Classified++
				cov.ByClass[cl.Class]++
				if cl.Class == ClassMarker {
					cov.Total.ByMarker++
				}
			} else {
				cov.Total.Unclassified++
				cov.Unclassified = append(cov.Unclassified, UnclassifiedEntry{Entry: e, Versions: e.Versions.String(), Files: e.Files, Suggest: SuggestClass(e)})
			}
			for i, v := range versions {
				if !e.Versions.Has(v) {
					continue
				}
				r := &rows[i]
				r.PodBearing++
				switch {
				case !ok:
					r.Unclassified++
				case cl.Class == ClassMarker:
					r.Classified++
					r.ByMarker++
				default:
					r.Classified++
				}
			}
		}
		cov.Rows = append(cov.Rows, rows...)
	}
	sort.SliceStable(cov.Unclassified, func(i, j int) bool {
		a, b := cov.Unclassified[i].Entry, cov.Unclassified[j].Entry
		if a.Component != b.Component {
			return a.Component < b.Component
		}
		return a.Text < b.Text
	})
	return cov
}
