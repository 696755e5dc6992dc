"""Benchmark Atlas calculators: standard library only, the same code in CPython and Pyodide."""
