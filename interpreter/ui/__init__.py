"""Front ends: the ``caput`` command line, the terminal play loop, the local web server and its
page, and board pictures.
"""
