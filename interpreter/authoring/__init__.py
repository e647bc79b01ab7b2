"""Help for content authors: the generated authoring guide with its worked examples and the
per-pack report (every effect in plain English).
"""
