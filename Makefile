# relctl: the two quick-start commands are `make demo` and `make test`.
SWIFT ?= swift
CONFIG ?= debug
BIN = .build/$(CONFIG)/relctl
EXAMPLE = Examples/velostream
INFO = Sources/RelctlBuildInfo/build_info_generated.h

.PHONY: demo test test-quick build deps test-deps buildinfo bench clean format

# Run relctl end to end on the bundled example project.
demo: build
	scripts/demo $(BIN)

# The whole test suite (what .ci/run calls). Every test is Swift Testing (--disable-xctest skips
# the empty XCTest pass). Its events go to a file that Tests/skipped-tests.py reads: it lists any
# test that did not run (skipped or cancelled), and with CI=true such a test fails the run
# (docs/development.md, "Tests that cannot go green by accident").
TEST_EVENTS = .build/test-events.jsonl
test: test-deps buildinfo
	$(SWIFT) build --build-tests
	rm -f $(TEST_EVENTS)
	$(SWIFT) test --disable-xctest --event-stream-output-path $(TEST_EVENTS) --event-stream-version 0
	python3 Tests/skipped-tests.py $(TEST_EVENTS)

# The edit loop (docs/development.md, "Which tests to run when"): the unit suites but the slow
# generated-history and property ones, and the CLI suites that run alone in seconds: the goal is
# <= 90 s on an idle 2-core machine (BENCHMARKS.md has what was measured); `make test` is what CI runs.
QUICK_SLOW_UNITS = SharedHistoryWalkTests|HistoryPropertyTests|VersionFloorInvariantTests|ChunkedGzipTests/aFailingWriteStopsTheProducer
QUICK_CLI = FoundationCLITests|FolderListingTests|DocumentationTests|InitDetectionCLITests|InitShapesCLITests|ChangelogCLITests|ChangelogFormatsCLITests|NotesCLITests|VersionConventionsCLITests|BranchRulesCLITests|MatrixCLITests|DebControlCLITests|WorkflowInjectionCLITests
test-quick: test-deps buildinfo
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest --filter 'RelctlCoreTests\.|$(QUICK_CLI)' --skip '$(QUICK_SLOW_UNITS)'

build: deps buildinfo
	$(SWIFT) build -c $(CONFIG) --product relctl

deps:
	scripts/install-deps

test-deps:
	scripts/install-deps --test

# Record the commit and build date for `relctl --version` (a plain `swift build` reports "unknown").
# With SOURCE_DATE_EPOCH (relctl's release build, scripts/build-release) the date is that time and
# the file is rewritten whenever it differs, so a build of one commit always prints the same;
# without it the date is the clock's, kept until the commit changes (one C file recompiles then).
buildinfo:
	@commit=$$(git rev-parse --short=12 HEAD 2>/dev/null || echo ""); \
	if [ -n "$$commit" ] && [ -n "$$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit="$$commit-dirty"; fi; \
	date=$$(date -u $${SOURCE_DATE_EPOCH:+-d @$$SOURCE_DATE_EPOCH} +%Y-%m-%dT%H:%M:%SZ); \
	new="#define RELCTL_COMMIT \"$$commit\"\n#define RELCTL_BUILD_DATE \"$$date\""; \
	if [ ! -f $(INFO) ] || ! grep -q "\"$$commit\"" $(INFO) || \
		{ [ -n "$${SOURCE_DATE_EPOCH:-}" ] && ! grep -q "\"$$date\"" $(INFO); }; then printf "$$new\n" > $(INFO); fi

bench:
	scripts/bench

clean:
	rm -rf .build $(INFO)

# Apply the checked-in .swift-format to the tree.
format:
	$(SWIFT) format format -i -r Sources Tests Package.swift
