"""Benchmarks run by `make bench`; each module reports ratios against a baseline in the same run."""
