package timeline

import (
	"strings"

	"github.com/podflow/podflow/parser"
)

// The device manager (pkg/kubelet/cm/devicemanager) holds the devices the
// device plugins advertise and, at admission, allocates them to a pod's
// containers (GetPreferredAllocation, then Allocate, over the plugin's
// gRPC). Its lines of a pod are pipeline rows (cm.go tells the admission
// they are part of). A plugin's devices can go unhealthy: the manager
// says so per resource (manager.go "Endpoint became unhealthy", "Mark all
// resources Unhealthy for resource", 1.33+ plugin/v1beta1/client.go
// "Device plugin disconnected"), and a pod that asks for them is then
// refused with UnexpectedAdmissionError: "Allocate failed due to no
// healthy devices present; cannot allocate unhealthy devices <resource>,
// which is unexpected" (manager.go devicesToAllocate). Either is a
// DevicePluginUnhealthy finding on the node, so that the refused pods
// point at it.

// findingDevicePlugin is the finding kind of a device plugin's unhealthy
// devices.
const findingDevicePlugin = "DevicePluginUnhealthy"

// devicePluginLine reads a device plugin's health line (SpecialDevicePlugin).
func (b *Builder) devicePluginLine(n *nodeState, rec *parser.Record) {
	msg := ""
	if n.findings[findingDevicePlugin] == nil {
		msg = rec.Msg
		for _, k := range [...]string{"resourceName", "resource"} {
			if v := rec.Str(k); v != "" {
				msg += " " + k + "=" + v
				break
			}
		}
	}
	b.finding(n, findingDevicePlugin, rec, msg, false)
}

// unhealthyDevices notes, for an admission refusal's message, that the
// devices it asked for were unhealthy (devicesToAllocate's errors).
func (b *Builder) unhealthyDevices(n *nodeState, rec *parser.Record, message string) {
	if strings.Contains(message, "cannot allocate unhealthy devices") {
		b.finding(n, findingDevicePlugin, rec, message, false)
	}
}
