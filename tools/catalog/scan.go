package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// call is one log call as the catalog records it.
type call struct {
	kind   string // msg (structured), printf (a format or print operands), event, dynamic
	sev    string // I, W, E, F, D
	v      int
	reason string // events
	text   string
	keys   []string
	file   string
	pod    []string // how the call carries a pod; empty: it does not
}

type scanner struct {
	src     source
	fset    *token.FileSet
	consts  map[string]map[string]string // import path → const name → value
	files   []*parsedFile
	out     []call
	helpers map[string]eventHelper
	curPkg  string // the package of the file being scanned
	file    string // when set, the file the lines name instead of the call's
}

type parsedFile struct {
	pkg  string
	name string
	f    *ast.File
}

func newScanner(s source) *scanner {
	return &scanner{src: s, fset: token.NewFileSet(), consts: map[string]map[string]string{}}
}

// parse reads every file and the package-level string constants.
func (sc *scanner) parse(pkgs map[string]*pkgFiles) error {
	paths := make([]string, 0, len(pkgs))
	for p := range pkgs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, ip := range paths {
		for _, fn := range pkgs[ip].files {
			f, err := parser.ParseFile(sc.fset, fn, nil, parser.SkipObjectResolution)
			if err != nil {
				return fmt.Errorf("parse %s: %w", fn, err)
			}
			sc.files = append(sc.files, &parsedFile{pkg: ip, name: filepath.Base(fn), f: f})
		}
	}
	// Constants first (a file may use a constant of a later file), folded
	// until nothing changes: constants built of other constants.
	for changed := true; changed; {
		changed = false
		for _, pf := range sc.files {
			imp := imports(pf.f)
			for _, d := range pf.f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i >= len(vs.Values) {
							continue
						}
						if _, done := sc.consts[pf.pkg][n.Name]; done {
							continue
						}
						if s, ok := sc.fold(pf.pkg, imp, vs.Values[i]); ok {
							if sc.consts[pf.pkg] == nil {
								sc.consts[pf.pkg] = map[string]string{}
							}
							sc.consts[pf.pkg][n.Name] = s
							changed = true
						}
					}
				}
			}
		}
	}
	return nil
}

func (sc *scanner) calls() []call {
	sc.findHelpers()
	for _, pf := range sc.files {
		sc.scanFile(pf)
	}
	return sc.out
}

// imports maps a file's local package names to import paths.
func imports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, is := range f.Imports {
		p, _ := strconv.Unquote(is.Path.Value)
		name := ""
		if is.Name != nil {
			name = is.Name.Name
		} else {
			parts := strings.Split(p, "/")
			name = parts[len(parts)-1]
			if len(parts) > 1 && len(name) >= 2 && name[0] == 'v' && name[1] >= '0' && name[1] <= '9' {
				// klog/v2 is package klog, core/v1 package v1: both names
				if _, taken := m[name]; !taken {
					m[name] = p
				}
				name = parts[len(parts)-2]
			}
			name = strings.TrimSuffix(strings.TrimPrefix(name, "go-"), ".v1")
		}
		m[name] = p
	}
	return m
}

// fold evaluates a constant string expression.
func (sc *scanner) fold(pkg string, imp map[string]string, e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.ParenExpr:
		return sc.fold(pkg, imp, e.X)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, ok1 := sc.fold(pkg, imp, e.X)
			b, ok2 := sc.fold(pkg, imp, e.Y)
			return a + b, ok1 && ok2
		}
	case *ast.Ident:
		s, ok := sc.consts[pkg][e.Name]
		return s, ok
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			if p, ok := imp[x.Name]; ok {
				if s, ok := sc.consts[p][e.Sel.Name]; ok {
					return s, true
				}
				switch e.Sel.Name { // core/v1's event types (not parsed)
				case "EventTypeNormal":
					return "Normal", true
				case "EventTypeWarning":
					return "Warning", true
				}
			}
		}
	case *ast.CallExpr:
		// string(events.Reason) conversions
		if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "string" && len(e.Args) == 1 {
			return sc.fold(pkg, imp, e.Args[0])
		}
	}
	return "", false
}

// pattern renders an expression as text where the unknown parts are
// %v; format says the literal parts are printf formats (kept as they
// are) rather than plain text (their % doubled). known counts the
// literal bytes.
func (sc *scanner) pattern(pkg string, imp map[string]string, e ast.Expr, format bool) (text string, known int) {
	if s, ok := sc.fold(pkg, imp, e); ok {
		if !format {
			s = strings.ReplaceAll(s, "%", "%%")
		}
		return s, len(s)
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return sc.pattern(pkg, imp, e.X, format)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, n1 := sc.pattern(pkg, imp, e.X, format)
			b, n2 := sc.pattern(pkg, imp, e.Y, format)
			return a + b, n1 + n2
		}
	case *ast.CallExpr:
		// The CSI plugin's log(format, args...): "kubernetes.io/csi: " + format.
		if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "log" && len(e.Args) > 0 && strings.HasSuffix(pkg, "pkg/volume/csi") {
			if f, ok := sc.fold(pkg, imp, e.Args[0]); ok {
				f = "kubernetes.io/csi: " + f
				return f, len(f) - 2*strings.Count(f, "%")
			}
		}
		// fmt.Sprintf(const, args...) inside a message
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && len(e.Args) > 0 {
			if x, ok := sel.X.(*ast.Ident); ok && imp[x.Name] == "fmt" && sel.Sel.Name == "Sprintf" {
				if f, ok := sc.fold(pkg, imp, e.Args[0]); ok {
					if !format {
						// the result is plain text: its verbs are unknowns
						return f, len(f) - 2*strings.Count(f, "%")
					}
					return f, len(f)
				}
			}
		}
	}
	return "%v", 0
}

var klogPaths = map[string]bool{"k8s.io/klog": true, "k8s.io/klog/v2": true, "github.com/golang/glog": true}

// logPkg says which logging package a path is.
func logPkg(path string) string {
	switch {
	case klogPaths[path]:
		return "klog"
	case path == "github.com/sirupsen/logrus":
		return "logrus"
	case path == "github.com/containerd/log", path == "github.com/containerd/containerd/log",
		strings.HasSuffix(path, "containerd/v2/pkg/log"), strings.HasSuffix(path, "containerd/pkg/log"):
		return "ctrdlog"
	case path == "github.com/cri-o/cri-o/internal/log":
		return "criolog"
	}
	return ""
}

type fileCtx struct {
	pf      *parsedFile
	imp     map[string]string
	loggers map[string]bool // identifiers holding a contextual logger
	vvars   map[string]int  // identifiers holding klog.V(n) or logger.V(n)
	vlogr   map[string]bool // … the latter
	entries map[string]bool // identifiers holding a logrus entry
	// locals are the values assigned to local variables, for a message
	// held in one (detailedMsg := volumeToMount.GenerateMsgDetailed(…)).
	locals map[string][]local
}

// local is one assignment: its position, the enclosing function's
// extent, the value and its index in a tuple assignment.
type local struct {
	pos, fnStart, fnEnd token.Pos
	value               ast.Expr
	index               int
}

// resolve returns the value last assigned to id before it in its function.
func (fc *fileCtx) resolve(id *ast.Ident) (local, bool) {
	var best local
	found := false
	for _, l := range fc.locals[id.Name] {
		if l.pos < id.Pos() && id.Pos() >= l.fnStart && id.Pos() < l.fnEnd && (!found || l.pos > best.pos) {
			best, found = l, true
		}
	}
	return best, found
}

func (sc *scanner) scanFile(pf *parsedFile) {
	sc.curPkg = pf.pkg
	fc := &fileCtx{pf: pf, imp: imports(pf.f), loggers: map[string]bool{}, vvars: map[string]int{}, vlogr: map[string]bool{}, entries: map[string]bool{}}
	// Identifiers assigned a logger anywhere in the file (names, not
	// scopes: a name reused for something else is rare in these files).
	ast.Inspect(pf.f, func(n ast.Node) bool {
		var lhs []ast.Expr
		var rhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs, rhs = n.Lhs, n.Rhs
		case *ast.ValueSpec:
			for _, id := range n.Names {
				lhs = append(lhs, id)
			}
			rhs = n.Values
		default:
			return true
		}
		if len(lhs) != len(rhs) {
			return true
		}
		for i, r := range rhs {
			id, ok := lhs[i].(*ast.Ident)
			if !ok {
				continue
			}
			if v, ok := sc.klogV(fc, r); ok {
				fc.vvars[id.Name] = v
				fc.vlogr[id.Name] = sc.isLogger(fc, r.(*ast.CallExpr).Fun.(*ast.SelectorExpr).X)
			} else if sc.isLogger(fc, r) {
				fc.loggers[id.Name] = true
			} else if sc.isEntry(fc, r) {
				fc.entries[id.Name] = true
			}
		}
		return true
	})
	fc.locals = map[string][]local{}
	var fns []ast.Node // enclosing functions
	ast.Inspect(pf.f, func(n ast.Node) bool {
		if n == nil {
			return true
		}
		for len(fns) > 0 && n.Pos() >= fns[len(fns)-1].End() {
			fns = fns[:len(fns)-1]
		}
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			fns = append(fns, n)
		case *ast.AssignStmt:
			if len(fns) == 0 {
				break
			}
			fn := fns[len(fns)-1]
			for i, l := range n.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				switch {
				case len(n.Rhs) == len(n.Lhs):
					fc.locals[id.Name] = append(fc.locals[id.Name], local{n.Pos(), fn.Pos(), fn.End(), n.Rhs[i], -1})
				case len(n.Rhs) == 1:
					fc.locals[id.Name] = append(fc.locals[id.Name], local{n.Pos(), fn.Pos(), fn.End(), n.Rhs[0], i})
				}
			}
		}
		return true
	})
	ast.Inspect(pf.f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			sc.scanCall(fc, n)
		case *ast.CompositeLit:
			sc.admitResult(fc, n)
		case *ast.AssignStmt:
			// lifecycle/predicate.go picks the reason of a refusal into a
			// variable: reason = OutOfCPU
			if pf.name == "predicate.go" && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok && id.Name == "reason" {
					sc.admitReason(fc, n, n.Rhs[0])
				}
			}
		}
		return true
	})
}

// klogV recognises klog.V(n) (and logger.V(n)) and returns n.
func (sc *scanner) klogV(fc *fileCtx, e ast.Expr) (int, bool) {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return 0, false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "V" {
		return 0, false
	}
	if !sc.isKlog(fc, sel.X) && !sc.isLogger(fc, sel.X) {
		return 0, false
	}
	return constInt(c.Args[0]), true
}

func constInt(e ast.Expr) int {
	switch e := e.(type) {
	case *ast.BasicLit:
		n, err := strconv.Atoi(e.Value)
		if err == nil {
			return n
		}
	case *ast.ParenExpr:
		return constInt(e.X)
	case *ast.CallExpr: // klog.Level(4)
		if len(e.Args) == 1 {
			return constInt(e.Args[0])
		}
	}
	return -1 // a variable level
}

func (sc *scanner) isKlog(fc *fileCtx, e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && logPkg(fc.imp[id.Name]) == "klog"
}

// isLogger recognises a contextual (logr) logger: a variable or field
// named for one, or klog's constructors of one.
func (sc *scanner) isLogger(fc *fileCtx, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return fc.loggers[e.Name] || strings.Contains(strings.ToLower(e.Name), "logger")
	case *ast.SelectorExpr:
		return strings.Contains(strings.ToLower(e.Sel.Name), "logger")
	case *ast.CallExpr:
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		switch sel.Sel.Name {
		case "FromContext", "Background", "TODO", "LoggerWithValues", "LoggerWithName", "NewKlogr":
			return sc.isKlog(fc, sel.X)
		case "WithValues", "WithName", "WithCallDepth":
			return sc.isLogger(fc, sel.X)
		}
	}
	return false
}

// isEntry recognises a logrus entry: log.G(ctx), log.L, logrus itself,
// and their WithField/WithError/WithFields chains.
func (sc *scanner) isEntry(fc *fileCtx, e ast.Expr) bool {
	_, ok := sc.entryFields(fc, e)
	return ok
}

func (sc *scanner) entryFields(fc *fileCtx, e ast.Expr) ([]ast.Expr, bool) {
	switch e := e.(type) {
	case *ast.Ident:
		if fc.entries[e.Name] {
			return nil, true
		}
		switch logPkg(fc.imp[e.Name]) {
		case "logrus", "ctrdlog":
			return nil, true
		}
	case *ast.SelectorExpr: // log.L
		if x, ok := e.X.(*ast.Ident); ok && logPkg(fc.imp[x.Name]) == "ctrdlog" && e.Sel.Name == "L" {
			return nil, true
		}
	case *ast.CallExpr:
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok {
			return nil, false
		}
		switch sel.Sel.Name {
		case "G", "GetLogger":
			if x, ok := sel.X.(*ast.Ident); ok && logPkg(fc.imp[x.Name]) == "ctrdlog" {
				return nil, true
			}
		case "WithField", "WithError", "WithFields", "WithContext":
			if x, ok := sel.X.(*ast.Ident); ok && logPkg(fc.imp[x.Name]) == "criolog" {
				return []ast.Expr{e}, true // CRI-O's log.WithFields(ctx, …)
			}
			inner, ok := sc.entryFields(fc, sel.X)
			if !ok {
				return nil, false
			}
			return append(inner, e), true
		}
	}
	return nil, false
}

var sevOf = map[string]string{"Info": "I", "Warning": "W", "Warn": "W", "Error": "E", "Fatal": "F", "Exit": "F", "Panic": "F", "Debug": "D", "Trace": "D", "Print": "I"}

// splitMethod splits a klog/logrus method name into its severity and
// form: "Infof" → I, f; "InfoS" → I, S; "ErrorDepth" → E, Depth.
func splitMethod(m string) (sev, form string, ok bool) {
	for base, s := range sevOf {
		if rest, found := strings.CutPrefix(m, base); found {
			switch rest {
			case "", "f", "ln", "S", "Depth", "SDepth", "fDepth":
				return s, rest, true
			}
		}
	}
	return "", "", false
}

func (sc *scanner) scanCall(fc *fileCtx, c *ast.CallExpr) {
	name := ""
	switch f := c.Fun.(type) {
	case *ast.SelectorExpr:
		name = f.Sel.Name
	case *ast.Ident:
		name = f.Name
	}
	if name == "handleError" && strings.HasSuffix(fc.pf.pkg, "pkg/util/runtime") && len(c.Args) >= 3 {
		// apimachinery's HandleError(err) logs handleError(ctx, err,
		// "Unhandled Error") at its caller's depth: the line names the
		// caller's file ("*").
		sc.file = "*"
		sc.structured(fc, c, "E", 0, 2, 3)
		sc.file = ""
		return
	}
	if sel, ok := c.Fun.(*ast.SelectorExpr); ok && strings.Contains(fc.pf.pkg, "k8s.io/cri-client") && len(c.Args) >= 3 &&
		(name == "Log" || name == "LogErr") && types.ExprString(sel.X) == "internal" {
		// internal.Log(logger, level, msg, kv...), internal.LogErr(logger, err, msg, kv...)
		sc.file = "log.go"
		if name == "Log" {
			sc.structured(fc, c, "I", constInt(c.Args[1]), 2, 3)
		} else {
			sc.structured(fc, c, "E", 0, 2, 3)
		}
		sc.file = ""
		return
	}
	if strings.Contains(fc.pf.pkg, "k8s.io/cri-client") && len(c.Args) >= 2 && (name == "log" || name == "logErr") {
		// The CRI client logs through r.log(level, msg, kv...) and
		// r.logErr(err, msg, kv...), which call klog from internal/log.go.
		sc.file = "log.go"
		if name == "log" {
			sc.structured(fc, c, "I", constInt(c.Args[0]), 1, 2)
		} else {
			sc.structured(fc, c, "E", 0, 1, 2)
		}
		sc.file = ""
		return
	}
	if h, ok := sc.helpers[fc.pf.pkg+"."+name]; ok {
		sc.helperCall(fc, c, h)
		return
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	m := sel.Sel.Name
	switch m {
	case "Event", "Eventf", "AnnotatedEventf", "PastEventf":
		if strings.Contains(strings.ToLower(types.ExprString(sel.X)), "recorder") {
			sc.event(fc, c, m)
		}
		return
	}
	sev, form, ok := splitMethod(m)
	if !ok {
		return
	}
	v, logr := 0, false
	switch {
	case sc.isKlog(fc, sel.X):
	case func() bool { n, ok := sc.klogV(fc, sel.X); v = n; return ok }():
		logr = sc.isLogger(fc, sel.X.(*ast.CallExpr).Fun.(*ast.SelectorExpr).X)
	case isIdentIn(sel.X, fc.vvars):
		v = fc.vvars[sel.X.(*ast.Ident).Name]
		logr = fc.vlogr[sel.X.(*ast.Ident).Name]
	case sc.isLogger(fc, sel.X):
		logr = true
	default:
		if fields, ok := sc.entryFields(fc, sel.X); ok {
			sc.logrus(fc, c, sev, form, fields)
			return
		}
		if x, ok := sel.X.(*ast.Ident); ok && logPkg(fc.imp[x.Name]) == "criolog" && form == "f" {
			sc.printf(fc, c, sev, 0, 1, nil)
		}
		return
	}
	if logr {
		// logr: Info(msg, kv...), Error(err, msg, kv...)
		switch m {
		case "Info":
			sc.structured(fc, c, sev, v, 0, 1)
		case "Error":
			sc.structured(fc, c, sev, v, 1, 2)
		}
		return
	}
	switch form {
	case "S":
		if sev == "E" {
			sc.structured(fc, c, sev, v, 1, 2)
		} else {
			sc.structured(fc, c, sev, v, 0, 1)
		}
	case "SDepth":
		if sev == "E" {
			sc.structured(fc, c, sev, v, 2, 3)
		} else {
			sc.structured(fc, c, sev, v, 1, 2)
		}
	case "f":
		sc.printf(fc, c, sev, v, 0, nil)
	case "fDepth":
		sc.printf(fc, c, sev, v, 1, nil)
	case "", "ln":
		sc.print(fc, c, sev, v, 0, form == "ln", nil)
	case "Depth":
		sc.print(fc, c, sev, v, 1, false, nil)
	}
}

func isIdentIn(e ast.Expr, m map[string]int) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	_, in := m[id.Name]
	return in
}

func (sc *scanner) pf(c ast.Node) string {
	if sc.file != "" {
		return sc.file
	}
	return filepath.Base(sc.fset.Position(c.Pos()).Filename)
}

// message renders a message argument: constant text, a volume
// operation's detailed message, or a pattern with unknown parts.
func (sc *scanner) message(fc *fileCtx, e ast.Expr, format bool) (text string, pod []string, dynamic bool) {
	return sc.message1(fc, e, format, -1, 0)
}

func (sc *scanner) message1(fc *fileCtx, e ast.Expr, format bool, index, depth int) (text string, pod []string, dynamic bool) {
	if id, ok := e.(*ast.Ident); ok && depth < 4 {
		if _, isConst := sc.fold(fc.pf.pkg, fc.imp, id); !isConst {
			if l, ok := fc.resolve(id); ok {
				if t, p, dyn := sc.message1(fc, l.value, format, l.index, depth+1); !dyn {
					return t, p, false
				}
			}
		}
	}
	if c, ok := e.(*ast.CallExpr); ok {
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
			// err.Error() of a detailed volume error
			if sel.Sel.Name == "Error" && len(c.Args) == 0 {
				if inner, ok := sel.X.(*ast.CallExpr); ok {
					return sc.message1(fc, inner, format, index, depth+1)
				}
				if id, ok := sel.X.(*ast.Ident); ok { // detailedErr.Error()
					return sc.message1(fc, id, format, index, depth+1)
				}
			}
			if t, p, ok := sc.volumeDetail(fc, c, sel, index); ok {
				return t, p, false
			}
		}
	}
	t, known := sc.pattern(fc.pf.pkg, fc.imp, e, format)
	if known == 0 {
		return types.ExprString(e), nil, true
	}
	return t, nil, false
}

// volumeDetail renders the operation executor's Generate{Msg,Error}
// {Detailed,Simple} helpers: "<prefix> for volume %q …", with the pod
// as pod "name" (UID: "uid") in the detailed forms of a volume to mount
// or a mounted volume.
func (sc *scanner) volumeDetail(fc *fileCtx, c *ast.CallExpr, sel *ast.SelectorExpr, index int) (string, []string, bool) {
	switch sel.Sel.Name {
	case "GenerateMsgDetailed", "GenerateErrorDetailed", "GenerateMsg", "GenerateError", "GenerateMsgSimple", "GenerateErrorSimple":
	default:
		return "", nil, false
	}
	if len(c.Args) == 0 {
		return "", nil, false
	}
	prefix, known := sc.pattern(fc.pf.pkg, fc.imp, c.Args[0], false)
	if known == 0 {
		return "", nil, false
	}
	recv := strings.ToLower(types.ExprString(sel.X))
	var pod []string
	// GenerateError and GenerateErrorDetailed return (simple, detailed): the
	// second names the pod.
	detailed := strings.Contains(sel.Sel.Name, "Detailed") || (strings.HasPrefix(sel.Sel.Name, "GenerateError") && index == 1)
	if detailed && strings.Contains(recv, "mount") {
		pod = []string{`volume detail: pod "name" (UID: "uid")`}
	}
	return prefix + " for volume %v", pod, true
}

// structured records klog's *S and logr calls.
func (sc *scanner) structured(fc *fileCtx, c *ast.CallExpr, sev string, v, msgAt, kvAt int) {
	if len(c.Args) <= msgAt {
		return
	}
	text, pod, dyn := sc.message(fc, c.Args[msgAt], false)
	cl := call{kind: "msg", sev: sev, v: v, text: text, file: sc.pf(c), pod: pod}
	if dyn {
		cl.kind = "dynamic"
	} else if strings.Contains(strings.ReplaceAll(text, "%%", ""), "%") {
		cl.kind = "printf" // a message built at run time: matched as a pattern
	} else {
		cl.text = strings.ReplaceAll(text, "%%", "%")
	}
	args := c.Args[kvAt:]
	if c.Ellipsis.IsValid() && len(args) > 0 {
		cl.keys = append(cl.keys, "…")
		args = args[:len(args)-1]
	}
	for i := 0; i+1 < len(args); i += 2 {
		k, ok := sc.fold(fc.pf.pkg, fc.imp, args[i])
		if !ok {
			k = "?"
		}
		cl.keys = append(cl.keys, k)
		if podKey(k) || sc.podExpr(args[i+1]) {
			cl.pod = append(cl.pod, k)
		}
	}
	sc.out = append(sc.out, cl)
}

// printf records a format and its arguments.
func (sc *scanner) printf(fc *fileCtx, c *ast.CallExpr, sev string, v, fmtAt int, fields []ast.Expr) {
	if len(c.Args) <= fmtAt {
		return
	}
	text, pod, dyn := sc.message(fc, c.Args[fmtAt], true)
	cl := call{kind: "printf", sev: sev, v: v, text: text, file: sc.pf(c), pod: pod}
	if dyn {
		cl.kind = "dynamic"
	}
	for _, a := range c.Args[fmtAt+1:] {
		if sc.podExpr(a) {
			cl.pod = append(cl.pod, short(a))
		}
	}
	sc.fieldKeys(fc, &cl, fields)
	sc.out = append(sc.out, cl)
}

// print records Info/Error(args...): fmt.Sprint of the operands (a
// space between two that are not strings) or Sprintln (always a space).
func (sc *scanner) print(fc *fileCtx, c *ast.CallExpr, sev string, v, at int, ln bool, fields []ast.Expr) {
	if len(c.Args) <= at {
		return
	}
	var parts []string
	known := 0
	var pod []string
	for _, a := range c.Args[at:] {
		t, p, dyn := sc.message(fc, a, false)
		if dyn {
			t = "%v"
		} else {
			known += len(t)
		}
		pod = append(pod, p...)
		parts = append(parts, t)
		if sc.podExpr(a) {
			pod = append(pod, short(a))
		}
	}
	sep := ""
	if ln {
		sep = " "
	}
	cl := call{kind: "printf", sev: sev, v: v, text: strings.Join(parts, sep), file: sc.pf(c), pod: pod}
	if known == 0 {
		cl.kind = "dynamic"
		var ss []string
		for _, a := range c.Args[at:] {
			ss = append(ss, types.ExprString(a))
		}
		cl.text = strings.Join(ss, ", ")
	}
	sc.fieldKeys(fc, &cl, fields)
	sc.out = append(sc.out, cl)
}

// logrus records containerd's log.G(ctx)… calls.
func (sc *scanner) logrus(fc *fileCtx, c *ast.CallExpr, sev, form string, fields []ast.Expr) {
	switch form {
	case "f":
		sc.printf(fc, c, sev, 0, 0, fields)
	case "", "ln":
		sc.print(fc, c, sev, 0, 0, form == "ln", fields)
	}
}

// fieldKeys adds a logrus chain's WithField keys (err for WithError).
func (sc *scanner) fieldKeys(fc *fileCtx, cl *call, fields []ast.Expr) {
	for _, f := range fields {
		fc2 := f.(*ast.CallExpr)
		name := fc2.Fun.(*ast.SelectorExpr).Sel.Name
		switch name {
		case "WithError":
			cl.keys = append(cl.keys, "error")
		case "WithField":
			if n := len(fc2.Args); n >= 2 {
				k, ok := sc.fold(fc.pf.pkg, fc.imp, fc2.Args[n-2])
				if !ok {
					k = "?"
				}
				cl.keys = append(cl.keys, k)
				if podKey(k) || sc.podExpr(fc2.Args[n-1]) {
					cl.pod = append(cl.pod, k)
				}
			}
		case "WithFields":
			if n := len(fc2.Args); n >= 1 {
				if cl2, ok := fc2.Args[n-1].(*ast.CompositeLit); ok {
					for _, el := range cl2.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							k, ok := sc.fold(fc.pf.pkg, fc.imp, kv.Key)
							if !ok {
								k = "?"
							}
							cl.keys = append(cl.keys, k)
							if podKey(k) || sc.podExpr(kv.Value) {
								cl.pod = append(cl.pod, k)
							}
						}
					}
				}
			}
		}
	}
}

// event records a recorder call: reason, message format, and whether
// its object is a pod or a container's reference.
func (sc *scanner) event(fc *fileCtx, c *ast.CallExpr, m string) {
	var obj, typ, reason, msg ast.Expr
	var args []ast.Expr
	a := c.Args
	switch {
	case m == "Event" && len(a) == 4:
		obj, typ, reason, msg = a[0], a[1], a[2], a[3]
	case m == "Eventf" && len(a) >= 4:
		obj, typ, reason, msg, args = a[0], a[1], a[2], a[3], a[4:]
	case (m == "AnnotatedEventf" || m == "PastEventf") && len(a) >= 5:
		obj, typ, reason, msg, args = a[0], a[2], a[3], a[4], a[5:]
	default:
		return
	}
	sc.eventCall(fc, c, obj, typ, "", reason, msg, args, m != "Event")
}

// eventCall records an event: typ or (a helper's constant) typConst.
func (sc *scanner) eventCall(fc *fileCtx, c *ast.CallExpr, obj, typ ast.Expr, typConst string, reason, msg ast.Expr, args []ast.Expr, format bool) {
	cl := call{kind: "event", sev: "I", file: sc.pf(c)}
	t, ok := typConst, typConst != ""
	if typ != nil {
		t, ok = sc.fold(fc.pf.pkg, fc.imp, typ)
	}
	switch {
	case ok && t == "Warning":
		cl.sev = "W"
	case !ok:
		cl.sev = "?"
	}
	r, ok := sc.fold(fc.pf.pkg, fc.imp, reason)
	if !ok {
		r = "%v"
	}
	cl.reason = r
	text, pod, _ := sc.message(fc, msg, format)
	cl.text, cl.pod = text, pod
	if obj != nil {
		o := strings.ToLower(types.ExprString(obj))
		if !strings.Contains(o, "node") && (sc.podExpr(obj) || strings.Contains(o, "ref")) {
			cl.pod = append(cl.pod, "object "+short(obj))
		}
	}
	for _, x := range args {
		if sc.podExpr(x) {
			cl.pod = append(cl.pod, short(x))
		}
	}
	sc.out = append(sc.out, cl)
}

// eventHelper is a function that records an event with a reason it is
// given (images' logIt, the runtime manager's recordContainerEvent,
// the kubelet's rejectPod): a call of it is the event.
type eventHelper struct {
	obj, typ, reason, msg int    // parameter indices; -1: none
	typConst              string // the type when the helper fixes it
	variadic              bool   // msg is a format and the rest its args
}

// findHelpers lists the event helpers of the parsed files, by name.
func (sc *scanner) findHelpers() {
	sc.helpers = map[string]eventHelper{}
	for _, pf := range sc.files {
		imp := imports(pf.f)
		for _, d := range pf.f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			switch fd.Name.Name {
			case "Event", "Eventf", "AnnotatedEventf", "PastEventf":
				continue
			}
			var params []string
			variadic := false
			for _, f := range fd.Type.Params.List {
				if _, ok := f.Type.(*ast.Ellipsis); ok {
					variadic = true
				}
				if len(f.Names) == 0 {
					params = append(params, "_")
				}
				for _, n := range f.Names {
					params = append(params, n.Name)
				}
			}
			idx := func(e ast.Expr) int {
				if id, ok := e.(*ast.Ident); ok {
					for i, p := range params {
						if p == id.Name {
							return i
						}
					}
				}
				return -1
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := c.Fun.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "Event" && sel.Sel.Name != "Eventf") || len(c.Args) < 4 ||
					!strings.Contains(strings.ToLower(types.ExprString(sel.X)), "recorder") {
					return true
				}
				h := eventHelper{obj: idx(c.Args[0]), typ: idx(c.Args[1]), reason: idx(c.Args[2]), msg: idx(c.Args[3]), variadic: variadic}
				if h.reason < 0 {
					return true
				}
				if h.typ < 0 {
					h.typConst, _ = sc.fold(pf.pkg, imp, c.Args[1])
				}
				if h.msg < 0 && h.reason+1 < len(params) {
					h.msg = h.reason + 1 // a message built from the next parameter
				}
				if h.obj < 0 {
					for i, p := range params {
						if l := strings.ToLower(p); strings.Contains(l, "pod") || strings.Contains(l, "ref") {
							h.obj = i
							break
						}
					}
				}
				sc.helpers[pf.pkg+"."+fd.Name.Name] = h // by package: prober's recordContainerEvent is not the runtime manager's
				return false
			})
		}
	}
}

// helperCall records a call of an event helper.
func (sc *scanner) helperCall(fc *fileCtx, c *ast.CallExpr, h eventHelper) {
	a := c.Args
	at := func(i int) ast.Expr {
		if i >= 0 && i < len(a) {
			return a[i]
		}
		return nil
	}
	if at(h.reason) == nil || at(h.msg) == nil {
		return
	}
	var args []ast.Expr
	if h.variadic && h.msg+1 < len(a) {
		args = a[h.msg+1:]
	}
	sc.eventCall(fc, c, at(h.obj), at(h.typ), h.typConst, a[h.reason], a[h.msg], args, h.variadic)
}

func short(e ast.Expr) string {
	s := types.ExprString(e)
	if len(s) > 48 {
		s = s[:45] + "…"
	}
	return s
}

// podKey says a structured key names a pod.
func podKey(k string) bool { return podText(k) }

// podExpr says an argument renders a pod (or its sandbox): klog.KObj(pod),
// format.Pod(pod), pod.UID, podFullName, a sandbox's id or config.
func (sc *scanner) podExpr(e ast.Expr) bool {
	if c, ok := e.(*ast.CallExpr); ok {
		if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "len" {
			return false // a count
		}
	}
	t := types.ExprString(e)
	if podText(t) {
		return true
	}
	if sc.src.component == "kubelet" && (strings.Contains(sc.curPkg, "/pkg/volume") || strings.Contains(sc.curPkg, "volumemanager")) && volumePath(t) {
		return true
	}
	if sc.src.component == "containerd" || sc.src.component == "cri-o" {
		// A runtime names the pod by the sandbox's metadata or labels, or
		// by a container's name (CRI-O's k8s_<container>_<pod>_…) or its
		// description (<ns>/<pod>/<container>); a container ID alone
		// does not name it.
		l := strings.ToLower(t)
		for _, w := range []string{"metadata", "description", "labels", "sbox", "sb."} {
			if strings.Contains(l, w) {
				return true
			}
		}
		if strings.HasSuffix(l, ".name()") || strings.HasSuffix(l, ".getname()") {
			return true
		}
	}
	return false
}

// notPod are words with "pod" in them that do not name one pod.
var notPod = []string{"podip", "podcidr", "podresource", "podlogs", "podsdir", "podmanager", "podworkers", "podkiller", "podcount", "maxpods", "numpods", "podsperCore", "podpidslimit", "podinfraContainerImage", "podinfracontainerimage", "podsandboxconfig.linux", "podmaxpids"}

func podText(s string) bool {
	s = strings.ToLower(s)
	for _, w := range notPod {
		s = strings.ReplaceAll(s, strings.ToLower(w), "")
	}
	return strings.Contains(s, "pod") || strings.Contains(s, "sandbox") || strings.Contains(s, "k8s_")
}

// admitResult records the event of a refused pod: the kubelet's
// rejectPod records Eventf(pod, Warning, result.Reason, "%s", result.Message)
// for an admit handler's PodAdmitResult{Reason: …}, so each reason a
// handler returns is an event reason.
func (sc *scanner) admitResult(fc *fileCtx, cl *ast.CompositeLit) {
	t := types.ExprString(cl.Type)
	if !strings.HasSuffix(t, "PodAdmitResult") {
		return
	}
	for _, el := range cl.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Reason" {
				sc.admitReason(fc, cl, kv.Value)
			}
		}
	}
}

func (sc *scanner) admitReason(fc *fileCtx, at ast.Node, reason ast.Expr) {
	r, ok := sc.fold(fc.pf.pkg, fc.imp, reason)
	if !ok || r == "" {
		return
	}
	sc.out = append(sc.out, call{kind: "event", sev: "W", reason: r, text: "%v", file: sc.pf(at), pod: []string{"object pod (rejectPod)"}})
}

// volumePath says an argument of a volume message is a pod's volume
// directory, /var/lib/kubelet/pods/<uid>/volumes/… (vo.dir, dirName,
// volumePath, mounter.GetPath()): the pod's UID is in it. A device's
// or plugin's global path is not a pod's.
func volumePath(t string) bool {
	l := strings.ToLower(t)
	for _, w := range []string{"global", "device", "plugin", "staging", "mountpoint", "kubeletdir", "rootdir", "hostpath"} {
		if strings.Contains(l, w) {
			return false
		}
	}
	base := l
	if i := strings.LastIndexAny(base, ".("); i >= 0 && !strings.HasSuffix(base, ")") {
		base = base[i+1:]
	}
	switch base {
	case "dir", "dirname", "volumepath", "voldir", "volumedir", "poddir", "podvolumedir", "targetdir", "getpath()", "vo.dir":
		return true
	}
	return strings.HasSuffix(l, ".getpath()") || strings.HasSuffix(l, ".dir")
}
