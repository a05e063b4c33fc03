// Package timeline rebuilds each pod's journey through the kubelet from
// parser records, against the reference pipeline (pipeline.go), and judges
// how it ended. It knows nothing of terminals or files.
//
// # From a record to a verdict
//
// A kubelet log is mostly lines no stage reads, so the cheapest work comes
// first and the state kept grows with pods, not lines:
//
//  1. Want (builder.go, match.go) is the parser's filter: it sees a line's
//     raw message before anything is decoded and declines those that no
//     marker, identity or node rule reads.
//  2. Add (builder.go) takes each record that passed. It finds the
//     record's node (nodes.go), sends container-runtime lines to
//     runtime.go and "Event occurred" lines to events.go, and looks the
//     message up among the markers of the Reference table in pipeline.go:
//     each marker is one log message that moves one stage (Begin,
//     Complete, Fail, Retry or Observe).
//  3. apply (builder.go) hands a matched line to the subsystem it comes
//     from in the kubelet, one file each, named as pkg/kubelet names them:
//     syncloop.go (SyncLoop ADD and its config sources), podworkers.go
//     ("Error syncing pod", matched by its error's text), volumes.go,
//     sandbox.go, containers.go (containers, their IDs and exit codes,
//     sidecars), pleg.go, status.go (status patches, readiness probes,
//     startup figures), slo.go (the runtime's own times of an init
//     container), termination.go (a kill is the pod's only after a
//     pod-level signal), probes.go (failed probes, kept on their
//     container), images.go (pull failures that name only the image, held
//     until a line ties the image to a container; image garbage collection
//     failures), eviction.go, admission.go, devicemanager.go (device
//     plugins' health), nodeshutdown.go (graceful node shutdown) and
//     nodes.go (the node's own lines and problems, kept as findings). A
//     marker with no Special needs no code of its own: the topology, CPU
//     and memory managers at admission, DRA, user namespaces, resize,
//     admission and most volume, sandbox and termination stages are data.
//  4. Every handler first finds the line's pod (podmanager.go, by the name
//     and UID renderings of identity.go, through the cache of package
//     internal/refcache) and ends with
//     a stage effect (stages.go) on the pod's flowState or on one of its
//     containers: a stage's begin, completion, failed attempts, retries,
//     reason and a few evidence lines (evidence.go).
//  5. Finish (finish.go) judges each flowState once the log is read: each
//     stage's Status against its budget and the log's -v, in pipeline
//     order (sequence.go: done, failed, stalled, active, pending, unknown,
//     skipped), the flow's public form (judge.go), the pod's Verdict and
//     the stage it stalled at (verdict.go), and a diagnosis in plain words
//     (diagnose.go), into the public Flow (types.go).
//
// # The catalog and its classification
//
// internal/catalog lists every message each kubelet version (1.11 on),
// containerd's CRI plugin, CRI-O and kube-controller-manager's node
// lifecycle controller log, from their source. classes.go classifies the
// ones that can name a pod: ClassOf(entry) is the Reference marker that
// reads it (ClassMarker), else its row of classes.tsv: ClassEvidence with
// the Stage it is evidence of, ClassFinding (the node's) or ClassRoutine
// (names a pod, moves nothing). Classes() lists the rows. The generic
// fallback (fallback.go) reads the kubelet's evidence rows for a line it
// attaches to a pod without a marker of its own, and only for a line
// that starts its pod (lineClass): a pod named by its UID alone in such a
// line is listed, and the line is the stage's evidence. The matcher
// (match.go) and its want filter do not read them. coverage.go
// counts them per version for `podflow pipeline --coverage`, and
// classsuggest.go proposes a row for a new version's message.
//
// # Storage
//
// A busy node's log names tens of thousands of pods, so a flow is kept
// compact while the log is read and only the builder that made it reads it
// back. The stores live in packages of their own under internal/, each
// behind a small API: texts are interned and held by index (words, in
// b.texts), times are packed stamps (stamps, in b.stamps), evidence lines
// are positions (linepos, in b.lines), runtime IDs are packed (runtimeid,
// b.idPack), and the last pod references' answers and repeated JSON
// values are remembered (refcache, textmemo);
// the status patch is read by internal/statuspatch, apart from what the
// patch means (status.go). What stays here is what the kubelet's lines
// mean: the stages sit in fixed slots (slots.go), one per stage the
// engine judges, and a stage id's slot is part of the pipeline's
// meaning; stores.go keeps the walk of every stamp a flow holds
// (eachStamp, for the stamps' sweep), which knows the flow's layout.
// Handlers call the stores directly (b.stamps.At and Before, b.texts.Intern
// and Set, b.lines.Where), so that the kubelet's logic reads as such and a
// change of layout stays in those packages; touch (stages.go), run for
// nearly every record, widens the flow's span with stamps.Table.Widen.
package timeline
