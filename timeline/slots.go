package timeline

// podStages and containerStages hold a flow's and a container's stages,
// one slot for each stage the engine judges (PodStages, TerminationStages,
// ContainerStages), nil until a line moves it. A stage of another pipeline
// has no slot: nothing would judge it. Every marker line looks its stage
// up by id: a switch into a fixed array is cheaper than a map, and an
// absent stage costs one nil pointer.
type (
	podStages       [podSlots]*stageState
	containerStages [containerSlots]*stageState
)

const (
	podSlots       = 12
	containerSlots = 4
)

func podSlot(id string) int {
	switch id {
	case StObserved:
		return 0
	case StAdmitted:
		return 1
	case StSynced:
		return 2
	case StVolumes:
		return 3
	case StSandbox:
		return 4
	case StInitContainers:
		return 5
	case StContainers:
		return 6
	case StRunning:
		return 7
	case StReady:
		return 8
	case StTerminating:
		return 9
	case StStopped:
		return 10
	case StTerminated:
		return 11
	}
	return -1
}

func containerSlot(id string) int {
	switch id {
	case CStImage:
		return 0
	case CStCreated:
		return 1
	case CStStarted:
		return 2
	case CStCompleted:
		return 3
	}
	return -1
}

func (ss *podStages) get(id string) *stageState {
	if i := podSlot(id); i >= 0 {
		return ss[i]
	}
	return nil
}

func (ss *podStages) put(id string, s *stageState) {
	if i := podSlot(id); i >= 0 {
		ss[i] = s
	}
}

func (ss *containerStages) get(id string) *stageState {
	if i := containerSlot(id); i >= 0 {
		return ss[i]
	}
	return nil
}

func (ss *containerStages) put(id string, s *stageState) {
	if i := containerSlot(id); i >= 0 {
		ss[i] = s
	}
}
