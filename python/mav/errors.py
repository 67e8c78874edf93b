"""mav's one exception type."""


class Error(Exception):
    """A failure of mav: the diagnostic text, the file it concerns and, where
    the diagnostic names one, the node.

    Raised for every failure of the package: a pipeline that does not parse
    or fails, a model that does not import, a checkpoint that is corrupt, a
    metadata write the verifier rejects, a graph that does not compute what
    its reference computes.
    """

    def __init__(self, message, file="", node=""):
        super().__init__(message)
        self.message = message
        self.file = file
        self.node = node

    def __str__(self):
        return self.message
