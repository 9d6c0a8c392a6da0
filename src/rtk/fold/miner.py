"""Online template mining (Drain, He et al. 2017): a fixed-depth prefix tree over masked tokens."""

from __future__ import annotations

from rtk.fold.mask import KIND_NAMES

WILD = "<*>"


class Template:
    """One cluster of lines: its tokens (``<kind>`` / ``<*>`` where lines differ) and how many lines it has."""

    __slots__ = ("count", "id", "toks")

    def __init__(self, tid: int, toks: list[str]) -> None:
        self.id = tid
        self.toks = toks
        self.count = 0

    def text(self) -> str:
        return " ".join(self.toks)


class Exact(Template):
    """The template of one kind of JSON log event: its level, message and field names with their kinds, exactly."""

    __slots__ = ()


def _variable(tok: str) -> bool:
    return tok == WILD or (tok[:1] == "<" and tok[-1:] == ">" and len(tok) > 2)


class Miner:
    """Drain's parse tree: length, then the first ``depth - 2`` tokens, then a list of templates per leaf.

    Memory is bounded by the number of templates (at most ``max_templates``; past it a
    line joins the most similar template of its leaf, or the leaf's overflow template)
    and never by the number of lines.
    """

    def __init__(self, depth: int = 4, sim: float = 0.4, max_children: int = 100, max_templates: int = 2000) -> None:
        self.depth = max(3, depth)
        self.sim = sim
        self.max_children = max_children
        self.max_templates = max_templates
        self.root: dict[object, object] = {}
        self.templates: list[Template] = []
        self.other = Template(-1, ["<other>"])
        self._exact: dict[tuple[str, ...], Template] = {}

    def exact(self, toks: list[str]) -> Template:
        """The template of a JSON log event: its level, message and fields' names, exactly (no tree).

        A field whose values are of several kinds (``url=<path>``, ``url=<str>``) is ``url=<*>``.
        """
        key = tuple(tok.split("=<", 1)[0] for tok in toks)  # the fields' names: a kind of value differs within
        t = self._exact.get(key)
        if t is None:
            if len(self.templates) >= self.max_templates:
                self.other.count += 1
                return self.other
            t = self._exact[key] = Exact(len(self.templates), list(toks))
            self.templates.append(t)
        elif t.toks != toks:
            t.toks = [a if a == b else a.split("=<", 1)[0] + "=" + WILD for a, b in zip(t.toks, toks, strict=True)]
        t.count += 1
        return t

    def _child(self, node: dict[object, object], key: object, full: bool) -> dict[object, object] | None:
        nxt = node.get(key)
        if nxt is None and not full and (len(node) < self.max_children - 1 or key == WILD):
            nxt = node[key] = {}
        assert nxt is None or isinstance(nxt, dict)
        return nxt

    def add(self, toks: list[str]) -> Template:
        """The template of a line given its masked tokens, updating the tree."""
        full = len(self.templates) >= self.max_templates
        node = self._child(self.root, len(toks), full)
        for tok in toks[: self.depth - 2]:
            if node is None:
                break
            key = WILD if _variable(tok) or any(c.isdigit() for c in tok) else tok
            nxt = self._child(node, key, full)
            if nxt is None and len(node) >= self.max_children - 1:
                nxt = self._child(node, WILD, full)
            node = nxt
        if node is None:
            self.other.count += 1
            return self.other
        leaf = node.setdefault(None, [])
        assert isinstance(leaf, list)
        best: Template | None = None
        best_sim = -1.0
        for t in leaf:
            assert isinstance(t, Template)
            if _other_frame(t.toks, toks):
                continue
            s = _similarity(t.toks, toks)
            if s > best_sim:
                best, best_sim = t, s
        if best is not None and (best_sim >= self.sim or len(self.templates) >= self.max_templates):
            best.toks = [a if a == b else WILD for a, b in zip(best.toks, toks, strict=True)]
            best.count += 1
            return best
        if full:  # no room: the line counts with every other line that found no template
            self.other.count += 1
            return self.other
        best = Template(len(self.templates), list(toks))
        self.templates.append(best)
        leaf.append(best)
        best.count += 1
        return best


def _frame(tok: str) -> str | None:
    """The punctuation around a variable field (``[<>]`` for ``[<n>]``), or None for a constant, ``<*>`` or ``key=<n>``."""
    lo = tok.find("<")
    hi = tok.find(">", lo + 1)
    if lo < 0 or hi < 0 or tok[lo : hi + 1] not in KIND_NAMES:
        return None
    around = tok[:lo] + tok[hi + 1 :]
    if any(c.isalnum() for c in around):  # ``key=<n>``: the key is a word, compared as such by the similarity
        return None
    return tok[:lo] + "<>" + tok[hi + 1 :]


def _other_frame(tmpl: list[str], toks: list[str]) -> bool:
    """Whether a variable field of the line sits in other punctuation than the template's field at that place.

    ``[<n>]`` (a value in brackets, e.g. an old version before the new one in parentheses)
    and ``(<n>`` are fields of another kind, as ``<path>`` and ``<str>`` are: the line is
    another kind of line even when its constant words are like the template's.
    """
    for a, b in zip(tmpl, toks, strict=True):
        if a != b and "<" in b:
            fa = _frame(a)
            if fa is not None and (fb := _frame(b)) is not None and (fa != fb or a != b):
                return True
    return False


def _similarity(tmpl: list[str], toks: list[str]) -> float:
    """Drain's simSeq over the line's constant tokens: the share of them the template has at the same place.

    A variable field (``<n>``, ``<time>``...) says nothing about the kind of line, so it
    counts neither way: two lines that share only a timestamp and a pid are not alike.
    """
    same = 0
    consts = 0
    for a, b in zip(tmpl, toks, strict=True):
        if "<" in b and ">" in b:  # a variable field, bare or inside punctuation (``[<n>]``, ``port=<n>``)
            continue
        consts += 1
        if a == b:
            same += 1
    return 1.0 if not consts else same / consts
