package timeline

// Zones the tests name load on a machine without a zone database too.
import _ "time/tzdata"
