# podflow — see README.md. `make demo` and `make test` are all a fresh machine needs.
GO      ?= go
BIN     ?= bin
PREFIX  ?= $(shell $(GO) env GOPATH)/bin
FUZZTIME ?= 60s
# A new input is minimized for up to a minute by default, and a deadline
# that falls in a minimization fails the run ("context deadline exceeded"):
# keep minimizations well under the shortest FUZZTIME anyone uses (5s).
FUZZFLAGS ?= -fuzzminimizetime=1s
DEMO_LOGS = testdata/corpus/v1.36.3

.PHONY: all build test test-race demo bench bench-data fuzz lint install golden clean catalog corpus

all: build

# The commit podflow was built from, for --version (git describe; "dev" outside a checkout).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

build:
	$(GO) build -ldflags "-X github.com/podflow/podflow/cmd.Version=$(VERSION)" -o $(BIN)/podflow ./cmd/podflow

# test runs every test, then every test again under the race detector:
# what CI runs (.ci/run). The race run took 15 minutes on a busy 2-core
# machine (cmd 12 of them), past go test's 10 minutes a package, hence
# its timeout; the plain run gets one too, for a loaded machine. The plain
# run also counts the causes of the 1 GiB bench log itself (generated as it
# is read, about a minute: internal/cause's TestGroupsBenchLog); the race
# run, ten times slower, an 8 MiB one.
RACETIMEOUT ?= 60m
test: lint
	PODFLOW_CAUSES_BENCH=1 $(GO) test -count=1 -timeout 30m ./...
	$(GO) test -race -count=1 -timeout $(RACETIMEOUT) ./...

# test-race is the race run alone.
test-race:
	$(GO) test -race -count=1 -timeout $(RACETIMEOUT) ./...

demo: build
	$(BIN)/podflow get pods $(DEMO_LOGS)
	@echo
	$(BIN)/podflow describe pod payments-7b4d9c8f6-q9zrt $(DEMO_LOGS)/04-sandbox-failure.log

install: build
	install -d $(PREFIX)
	install -m 0755 $(BIN)/podflow $(PREFIX)/podflow
	ln -sf podflow $(PREFIX)/kubectl-podflow
	@echo "installed $(PREFIX)/podflow and $(PREFIX)/kubectl-podflow (kubectl podflow …)"

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

golden:
	$(GO) test ./cmd/... ./timeline/... ./tui/... -update

# bench builds bench-data/ when missing (about 4.4 GB, a minute or two), runs the
# Go benchmarks and times podflow against grep on it: medians of 5.
bench:
	GO=$(GO) BIN=$(BIN) scripts/bench.sh

bench-data:
	GO=$(GO) scripts/bench-data.sh

# pgo refreshes cmd/podflow/default.pgo, the CPU profile the Go toolchain
# optimises podflow's build with (profile-guided optimisation; go build
# picks it up by itself): get pods on make bench's 1 GiB log, -o json on
# its 100 MiB one and get pods on the real corpus, merged. Refresh it when
# the engine or the parser changed much; it is data, reviewed by size only.
.PHONY: pgo
pgo: bench-data
	$(GO) build -o $(BIN)/podflow ./cmd/podflow
	$(BIN)/podflow get pods -o name --profile cpu --profile-output $(BIN)/pgo1.pprof bench-data/kubelet-1g.log > /dev/null
	$(BIN)/podflow get pods -o json --profile cpu --profile-output $(BIN)/pgo2.pprof bench-data/kubelet-100m.log > /dev/null
	$(BIN)/podflow get pods --profile cpu --profile-output $(BIN)/pgo3.pprof testdata/corpus > /dev/null
	$(GO) tool pprof -proto $(BIN)/pgo1.pprof $(BIN)/pgo2.pprof $(BIN)/pgo3.pprof > cmd/podflow/default.pgo

# Every package with fuzz targets, each target for FUZZTIME (e.g. make fuzz
# FUZZTIME=10m). Crashers land in the package's testdata/fuzz/<Target>/
# and run as regression seeds in plain go test.
fuzz:
	@pkgs=$$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); \
	for pkg in $$pkgs; do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$t ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $(FUZZFLAGS) $$pkg || exit 1; \
	  done; \
	done

# corpus builds unmodified kubelets of the KUBE versions (and a kube-apiserver
# of the newest) from the k8s.io/kubernetes module source into
# $${PODFLOW_KUBE_CACHE:-$$HOME/.cache/podflow-kube}, runs every scenario of
# tools/kubeharness/scenarios that the version supports against etcd, the API
# server and our fake CRI, and writes testdata/corpus/vX.Y.Z/*.log and their
# MANIFEST rows. Needs root (the kubelet) and minutes per version; not part of
# `make test`. e.g. make corpus KUBE="1.35 1.37.2" ONLY='^(01|14)-'
KUBE ?= 1.37.2
CORPUS_PARALLEL ?= 3
ONLY ?=
corpus:
	cd tools/kubeharness && $(GO) build -o ../../$(BIN)/kubeharness .
	$(BIN)/kubeharness run -kube "$(KUBE)" -parallel $(CORPUS_PARALLEL) -only '$(ONLY)'

# live-test runs podflow against a real kube-apiserver and real kubelets
# of KUBE (1.27 or later), which the harness of make corpus builds and
# runs: get pods --node through the node log query must show what the
# same log shows as a file, and a node without the query must be refused
# with the settings to change (scripts/live-test.sh says how). Needs root;
# not part of make test. e.g. make live-test KUBE=1.37.2
.PHONY: live-test
live-test:
	KUBE="$(KUBE)" GO=$(GO) BIN=$(BIN) scripts/live-test.sh

clean:
	rm -rf $(BIN)

# catalog regenerates internal/catalog/catalog.tsv from the kubelet's,
# containerd's and CRI-O's own source at each version in
# tools/catalog/versions.txt (needs the Go module proxy; see README).
catalog:
	cd tools/catalog && $(GO) run . -o ../../internal/catalog/catalog.tsv
