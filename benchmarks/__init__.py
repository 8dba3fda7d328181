"""The lab beside cgsim: measurements that compare builds or take the match loop apart.

Not part of the installed package. ``cgsim bench`` prints what a user asks (games per
second, milliseconds per decision, parallel efficiency); these modules answer a
maintainer's questions, run from the checkout (``make bench-compare``, ``make bench-loop``):

- :mod:`benchmarks.probe`: one measurement, a script any cgsim installation runs;
- :mod:`benchmarks.spawn`: runs the probe in a fresh process of a given interpreter;
- :mod:`benchmarks.loop`: the match loop's cost over the bare engine, this build;
- :mod:`benchmarks.compare`: this build beside a baseline's, the builds alternating.
"""
