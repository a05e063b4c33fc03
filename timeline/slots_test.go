package timeline

import "testing"

// Every stage the engine judges, and every stage a reference marker moves,
// has a slot in podStages or containerStages, each its own.
func TestStageSlots(t *testing.T) {
	seen := map[int]string{}
	for _, id := range append(append([]string{}, PodStages...), TerminationStages...) {
		i := podSlot(id)
		if i < 0 || seen[i] != "" {
			t.Errorf("pod stage %q: slot %d (taken by %q)", id, i, seen[i])
		}
		seen[i] = id
	}
	if len(seen) != len(podStages{}) {
		t.Errorf("%d pod stages for %d slots", len(seen), len(podStages{}))
	}
	seen = map[int]string{}
	for _, id := range ContainerStages {
		i := containerSlot(id)
		if i < 0 || seen[i] != "" {
			t.Errorf("container stage %q: slot %d (taken by %q)", id, i, seen[i])
		}
		seen[i] = id
	}
	if len(seen) != len(containerStages{}) {
		t.Errorf("%d container stages for %d slots", len(seen), len(containerStages{}))
	}
	for _, mk := range Reference.Markers {
		if mk.Stage == "" {
			continue
		}
		slot := podSlot(mk.Stage)
		if mk.Container {
			slot = containerSlot(mk.Stage)
		}
		if slot < 0 {
			t.Errorf("marker %q %q moves stage %q, which has no slot", mk.Msg+mk.Prefix+mk.Event+mk.ErrHas, mk.Effect, mk.Stage)
		}
	}
}
