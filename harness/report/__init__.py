"""Reports: one model, a renderer per format, the tables every command prints,
the HTML report and results files.
"""
