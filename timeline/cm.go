package timeline

import "github.com/podflow/podflow/parser"

// The container manager's resource managers (pkg/kubelet/cm): the
// topology manager (cm/topologymanager), whose admit handler asks the CPU
// manager (cm/cpumanager), the memory manager (cm/memorymanager) and the
// device manager (cm/devicemanager, devicemanager.go) for NUMA hints and
// lets each allocate. A pod they cannot place is refused: "Pod admission
// denied" with the handler's reason (TopologyAffinityError,
// SMTAlignmentError, UnexpectedAdmissionError "Allocate failed due to
// <err>, which is unexpected": cm/admission/errors.go), read by
// admission.go. Their own lines of a pod (hints, affinities, allocations)
// are pipeline rows, evidence of its admission; their errors ("Unable to
// allocate CPUs" err="not enough cpus available to satisfy request: …",
// memory_manager.go "Allocate error") fail it. Most name the pod by pod=;
// what needs code is here.

// resourceManagerLine reads a resource manager's line that may name its
// pod by podNamespace and podName beside podUID (SpecialResourceManager):
// the topology manager's "Topology Admit Handler" (topology_manager.go
// Admit, 1.21–1.30; before, the printf "[topologymanager] Topology Admit
// Handler" names no pod and is no row).
func (b *Builder) resourceManagerLine(n *nodeState, rec *parser.Record, mk *Marker) {
	f := b.flowFor(n, rec, true)
	if f == nil {
		name, ns := rec.Str("podName"), rec.Str("podNamespace")
		switch {
		case name != "" && ns != "":
			f = b.resolve(n, PodRef{Namespace: ns, Name: name}, true, recordUID(rec), true)
		case name != "":
			f = b.flowByName(n, name) // a name alone: the one live pod of that name
		}
	}
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	b.stageEffect(f, mk.Stage, mk.Effect, rec, "")
}
