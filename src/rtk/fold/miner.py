"""Online template mining (Drain, He et al. 2017): a fixed-depth prefix tree over masked tokens."""

from __future__ import annotations

from rtk.fold.mask import KIND_NAMES, source

WILD = "<*>"


class Template:
    """One cluster of lines: its tokens (``<kind>`` / ``<*>`` where lines differ) and how many lines it has."""

    __slots__ = ("count", "id", "kin", "nums", "toks")

    def __init__(self, tid: int, toks: list[str]) -> None:
        self.id = tid
        self.toks = toks
        self.count = 0
        self.nums: set[int] = set()  # places where a line of it had a number (``group_key``)
        self.kin: list[Template] | None = None  # the templates of its leaf (``answers``), oldest first

    def text(self) -> str:
        return " ".join(self.toks)


class Exact(Template):
    """The template of one kind of JSON log event: its level, message and field names with their kinds, exactly."""

    __slots__ = ()


def group_key(t: Template, masks: list[str]) -> tuple[object, ...]:
    """The group of a line of template ``t``: the template and the kind of each of the line's variable fields.

    Lines Drain merged whose variable fields are of other kinds (a quoted name where the others have
    a path) are another kind of line, grouped apart so that a rare one stays whole. A lone ``-`` (no
    value: Apache's size of a response without a body, ``200 -`` where others log ``200 1534``) at a
    place where the template's lines had a number is that number's kind: the same kind of line.
    """
    key: list[object] = [t.id]
    for i, m in enumerate(masks):
        if m[:1] == "<" and m[-1:] == ">":
            key.append((i, m))
            if m == "<n>":
                t.nums.add(i)
        elif m == "-" and i in t.nums and i < len(t.toks) and t.toks[i] == WILD:  # (a long line: toks cut)
            key.append((i, "<n>"))
    return tuple(key)


LAST_KEYS = 16  # a node keys at most this many words that end a line (``_last_key``)


def _last_key(tok: str, node: dict[object, object]) -> bool:
    """Whether the last token of a short line (all its tokens in the prefix; not the only one) is a key of the tree.

    Drain never keys the last token: it is most often a value (``CC gzip.o``, ``GEN alloca.h``: one
    template ``CC <*>``, the similarity merging the file names). A word (letters, ``_``, ``-``; no ``.``
    or ``/``) where no other form was seen after the same first tokens (no file name, number...: no
    ``<*>`` child) is a kind of line, as pip's ``running build`` and ``running install`` are: each stays
    a template (rare, shown whole), up to :data:`LAST_KEYS` words a node.
    """
    if tok in node:
        return True
    return WILD not in node and len(node) < LAST_KEYS and tok.replace("_", "").replace("-", "").isalpha()


def _source_key(toks: list[str], depth: int) -> tuple[str, str] | None:
    """The key of a line's source location among its first ``depth`` tokens (``(response.c.203)``), if any.

    A debug log names the place in its program's code that printed the line (file and line number): one
    place prints one kind of line, so lines of two places are never one template (drain3 nearly keeps them
    apart too; its similarity merges ``(a.c.517) Path : <path>`` and ``(a.c.538) Path : <path>``).
    """
    for tok in toks[:depth]:
        if "<" not in tok and tok[-1:] in ")]:" and source(tok):
            return ("@", tok)
    return None


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
        """The template of a line given its masked tokens, updating the tree.

        The line's leaf is searched through its index (:class:`Leaf`), so a leaf of 2,000
        templates costs a line no more than a leaf of two: at most :data:`VISITS` index
        entries and :data:`FRAMES` frame checks, whatever the input.
        """
        full = len(self.templates) >= self.max_templates
        node = self._child(self.root, len(toks), full)
        last = len(toks) - 1
        for j, tok in enumerate(toks[: self.depth - 2]):
            if node is None:
                break
            key = WILD if _variable(tok) or any(c.isdigit() for c in tok) else tok
            if j == last and j and key != WILD and not _last_key(tok, node):
                key = WILD
            nxt = self._child(node, key, full)
            if nxt is None and len(node) >= self.max_children - 1:
                nxt = self._child(node, WILD, full)
            node = nxt
        if node is not None and (src := _source_key(toks, self.depth)) is not None:
            node = self._child(node, src, full)
        if node is None:
            self.other.count += 1
            return self.other
        leaf = node.get(None)
        if leaf is None:
            leaf = node[None] = Leaf()
        assert isinstance(leaf, Leaf)
        best, best_sim = leaf.best(toks, full or self.sim <= 0)
        if best is not None and (best_sim >= self.sim or full):
            leaf.merge(best, toks)
            best.count += 1
            return best
        if full:  # no room: the line counts with every other line that found no template
            self.other.count += 1
            return self.other
        best = Template(len(self.templates), list(toks))
        self.templates.append(best)
        leaf.put(best)
        best.count += 1
        return best


VISITS = 512  # entries of a leaf's index a line looks at, at most...
BUCKET = 128  # ...and for one of its tokens (real outputs: under 100 templates of a leaf share a token at a place)
FRAMES = 64  # templates a line checks for a field in other punctuation, at most
SCAN = 8  # a leaf of at most this many templates is scanned, not indexed (most leaves: an index costs memory)


def _field(tok: str) -> bool:
    """Whether a masked token is a variable field (bare or inside punctuation): not a constant word."""
    return "<" in tok and ">" in tok


KIN = 64  # templates of a leaf looked at for another answer (``answers``), at most


def answers(t: Template) -> bool:
    """Whether a template of ``t``'s leaf with more lines differs from it only in its last word: the usual answer.

    ``checking whether <*> <*> <*> <*> no`` beside ``checking whether <*> <*> <*> <*> yes`` (configure),
    ``job <*> <*> failed`` beside ``job <*> <*> done``: Drain keeps them apart (the last word weighs much in a
    short line), and the smaller is the other answer, its lines exceptions (rare.once). Both words are
    letters only; at most :data:`KIN` templates of the leaf are looked at.
    """
    kin = t.kin
    if not kin:
        return False
    toks = t.toks
    for u in kin[:KIN]:
        if u is t or u.count <= t.count:  # (the usual answer has more lines)
            continue
        a, b = toks[-1], u.toks[-1]
        if a != b and toks[:-1] == u.toks[:-1] and all(w.isalpha() for w in (a, b)):
            return True
    return False


class Leaf:
    """The templates of one leaf of the tree, oldest first, and an index: for each place, constant token -> templates.

    Drain compares a line with every template of its leaf (simSeq, the share of the line's
    constant tokens the template has at the same place; a variable field, bare or inside
    punctuation, says nothing about the kind of line and counts neither way: two lines that
    share only a timestamp and a pid are not alike). A template that shares none of them
    scores 0, so only the templates the index names for the line's constant tokens are scored;
    the result is the same: the best score, the oldest template on a tie. The index is built
    when the leaf has more than :data:`SCAN` templates; it holds the templates' own token strings,
    one dict a place (a leaf's templates all have its length).
    """

    __slots__ = ("index", "templates")

    def __init__(self) -> None:
        self.templates: list[Template] = []
        self.index: list[dict[str, Template | list[Template]]] = []  # one a place: a template, or several oldest first

    def put(self, t: Template) -> None:
        """A new template (the newest of the leaf)."""
        t.kin = self.templates
        self.templates.append(t)
        if self.index:
            self._index(t)
        elif len(self.templates) > SCAN:
            self.index = [{} for _ in t.toks]
            for old in self.templates:
                self._index(old)

    def _index(self, t: Template) -> None:
        for slot, tok in zip(self.index, t.toks, strict=True):
            if not _field(tok):
                had = slot.get(tok)
                if had is None:
                    slot[tok] = t
                elif isinstance(had, list):
                    had.append(t)
                else:
                    slot[tok] = [had, t]

    def merge(self, t: Template, toks: list[str]) -> None:
        """Template ``t`` takes a line: where they differ, the template has ``<*>`` (and leaves the index)."""
        if t.toks == toks:
            return
        new = [a if a == b else WILD for a, b in zip(t.toks, toks, strict=True)]
        if self.index:  # each place of a template leaves the index once: its constant never comes back
            for slot, a, b in zip(self.index, t.toks, new, strict=True):
                if a != b and not _field(a):
                    had = slot[a]
                    if had is t:
                        del slot[a]
                    else:
                        assert isinstance(had, list)
                        had.remove(t)
                        if len(had) == 1:
                            slot[a] = had[0]
        t.toks = new

    def best(self, toks: list[str], any_score: bool) -> tuple[Template | None, float]:
        """The most similar template of the leaf and its score, skipping those of another frame (``_other``).

        ``any_score``: a template scoring 0 is wanted too (the miner is full); otherwise
        None when no template shares a constant token with the line.
        """
        consts = [i for i, b in enumerate(toks) if not _field(b)]
        framed = [(i, b) for i, b in enumerate(toks) if "<" in b and _frame(b) is not None]
        if not consts:  # every template scores 1: the oldest not of another frame
            return self._first(framed), 1.0
        if not self.index:
            return self._scan(toks, consts, framed)
        counts: dict[Template, int] = {}
        get = counts.get
        budget = VISITS
        index = self.index
        for i in consts:
            had = index[i].get(toks[i])
            if had is None:
                continue
            if not isinstance(had, list):
                counts[had] = get(had, 0) + 1
                budget -= 1
            else:  # (only a crafted input has more: then the oldest templates sharing the token are scored)
                size = min(len(had), BUCKET, budget)
                for t in had if size == len(had) else had[:size]:
                    counts[t] = get(t, 0) + 1
                budget -= size
            if budget <= 0:
                break
        n = len(consts)
        if counts:
            t = min(counts, key=lambda t: (-counts[t], t.id))
            if not framed or not _other(t.toks, framed):
                return t, counts[t] / n
            for t in sorted(counts, key=lambda t: (-counts[t], t.id))[1:FRAMES]:
                if not _other(t.toks, framed):
                    return t, counts[t] / n
        if not any_score:
            return None, 0.0
        t0 = self._first(framed)  # (those scored are of another frame)
        return t0, 0.0 if t0 is None else counts.get(t0, 0) / n

    def _scan(self, toks: list[str], consts: list[int], framed: list[tuple[int, str]]) -> tuple[Template | None, float]:
        """Each template scored (a small leaf): the best not of another frame, the oldest on a tie."""
        best: Template | None = None
        top = -1
        for t in self.templates:
            tt = t.toks
            if framed and _other(tt, framed):
                continue
            same = 0
            for i in consts:
                if tt[i] == toks[i]:
                    same += 1
            if same > top:
                best, top = t, same
        return best, max(top, 0) / len(consts)

    def _first(self, framed: list[tuple[int, str]]) -> Template | None:
        """The oldest template not of another frame (among the first :data:`FRAMES`)."""
        for t in self.templates[:FRAMES]:
            if not _other(t.toks, framed):
                return t
        return None


def _other(tmpl: list[str], framed: list[tuple[int, str]]) -> bool:
    """Whether the template has another framed field where the line has one (``framed``: its places and tokens).

    ``[<n>]`` (a value in brackets, e.g. an old version before the new one in parentheses)
    and ``(<n>`` are fields of another kind, as ``<path>`` and ``<str>`` are: the line is
    another kind of line even when its constant words are like the template's.
    """
    for i, b in framed:
        a = tmpl[i]
        if a != b and _frame(a) is not None:
            return True
    return False


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
