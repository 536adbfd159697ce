"""The demo store and the generated corpora used by the demo, tests and benchmarks."""
