"""Mask credentials in command lines before they are stored or shown anywhere.

Two passes. The first reads the command word by word and masks values whose
meaning depends on the tool: ``curl -u user:PASS`` (and ``--user``,
``--proxy-user``, cookies given with ``-b``), ``mysql -pPASS`` for the
mysql-like tools only (``psql -p 5432`` is a port), ``sshpass -p PASS``,
``redis-cli -a PASS``, ``docker``/``az login -p PASS``, the password flags of zip, 7z,
ldapsearch, mongo, sqlcmd, ssh-keygen, openssl and twine (``_NEXT_IS_SECRET``),
``smbclient -U user%PASS``, ``curl -x user:PASS@proxy``, ``sqlplus user/PASS@db``,
``vault login TOKEN``, ``gh secret set -b VALUE``, ``aws configure set NAME VALUE`` (and
``npm``/``git config``) for a secret-named NAME, ``htpasswd -b FILE USER PASS`` (``-nb USER
PASS``), ``--otp CODE``, and a here-string fed to ``--with-token``, ``--password-stdin``,
``sudo -S`` or ``vercel env add NAME``, as are the words ``echo``/``printf`` pipe into one of
them (``echo PASS | docker login --password-stdin``). Quoted words holding a
command (``sh -c '...'``, ``ssh host '...'``) are read the same way.
The second pass works on the whole text, wherever a value stands:
secret-named flags (``--token X``, ``--password=X``), secret-named assignments
(``PGPASSWORD=X``, and upper-case names ending ``_KEY``/``_PW``/``_PAT``/``_SK``/``_PIN``), JSON
fields named like secrets (``{"password":"X"}``), ``kubectl --from-literal=NAME=X``, Oracle
JDBC ``user/X@host``, SQL ``PASSWORD 'X'``/``IDENTIFIED BY 'X'``, HTTP auth headers, passwords in URLs (and the whole userinfo of an
``https://TOKEN@host`` URL), secret query
parameters and well-known token shapes (GitHub, GitLab, OpenAI/Stripe-style
``sk-``, Slack, AWS, Google, npm, Hugging Face, JWTs).
"""

from __future__ import annotations

import re

MASK = "****"

# Tools whose ``-pVALUE`` (attached only: ``-p`` alone prompts) is a password.
_MYSQL_LIKE = frozenset(
    (
        "mysql", "mariadb", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlpump",
        "mysqlbinlog", "mysqlslap", "mysqlsh", "mariadb-dump", "mariadb-admin", "mariadb-import",
        "mariadb-show", "mariadb-check", "mariadb-binlog", "mariadb-slap", "mydumper", "myloader",
    )
)  # fmt: skip
# Tools whose ``-u``/``--user`` value is ``user:password``.
_CURL_LIKE = frozenset(("curl", "wget", "http", "https", "xh", "xhs", "curlie", "httpie", "aria2c"))
_HTTPIE = frozenset(("http", "https", "xh", "xhs", "httpie"))  # their -a/--auth is user:password too
_LOGIN_TOOLS = frozenset(("docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "crane", "az"))
# Tools and the flags whose next word is a password (or a raw key): ``zip -P PASS``, ``ldapsearch -w PASS``.
_NEXT_IS_SECRET: dict[str, frozenset[str]] = {
    **dict.fromkeys(("mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport"), frozenset(("-p",))),
    **dict.fromkeys(("ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare",
                     "ldapmodrdn", "ldapexop"), frozenset(("-w",))),
    **dict.fromkeys(("zip", "unzip", "zipcloak", "sqlcmd", "bcp"), frozenset(("-P",))),
    "ssh-keygen": frozenset(("-N", "-P")), "openssl": frozenset(("-k", "-K")), "twine": frozenset(("-p",)),
    "doctl": frozenset(("-t",)),
}  # fmt: skip
_ATTACHED_SECRET = frozenset(("7z", "7za", "7zz", "7zr"))  # ``7z a -pPASS``: ``-p`` alone prompts
_USER_SEP = {"smbclient": "%", "rpcclient": "%", "smbcacls": "%", "smbget": "%", "lftp": ","}  # ``-U user%PASS``
_ORACLE = frozenset(("sqlplus", "rman", "expdp", "impdp", "exp", "imp", "sqlldr", "dgmgrl"))  # ``user/PASS@db``
_USER_FLAGS = frozenset(("-u", "--user", "--proxy-user", "--http-user", "--ftp-user"))  # and curl -U
_COOKIE_FLAGS = frozenset(("-b", "--cookie"))
_SEPARATORS = frozenset((";", "|", "||", "&&", "&", "(", ")", "|&"))
_WORD = re.compile(r"""(?:'[^']*'?|"(?:[^"\\]|\\.)*"?|\\.|[^\s'"\\;|&()])+|[;|&()]+""")

_NAME = r"(?:[A-Za-z0-9_.-]*?(?:pass(?:word|wd|phrase)?|pwd|token|secret|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?key|auth(?!or)|credentials?|creds(?![a-z])|account[_-]?key|cookie|session|jwt|signature)[A-Za-z0-9_.-]*)"
_VALUE = r"""(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'";|&]+)"""
# Flags named like secrets whose value is not one: a place to read it from, a switch.
_NOT_A_VALUE = ("stdin", "file", "path", "dir", "env", "prompt", "command", "cmd", "helper", "store", "length")
_PLAIN = frozenset(("yes", "no", "true", "false", "on", "off", "none", "null", "0", "1", "ask", "''", '""'))
_START = r"""(?<![^\s'"=(])"""  # at the start of a word (or of a quoted string, or after ``=``)

_HEADER = re.compile(
    _START
    + r"((?:proxy-)?authorization|(?:set-)?cookie|[a-z0-9-]*(?:api-?key|token|secret|auth|signature|password|session)[a-z0-9-]*)(\s*:\s*)((?:bearer|basic|token|digest|negotiate)\s+)?",
    re.IGNORECASE,
)
_FLAG = re.compile(_START + r"(--?" + _NAME + r")(=|\s+)(?![-<>])(" + _VALUE + r")", re.IGNORECASE)
_SECRET_NAME = re.compile(r"(?:-*|.*[/:])" + _NAME, re.IGNORECASE)  # a word that names a secret
# An assignment may also follow ``:`` or ``/`` (npm's ``//registry.npmjs.org/:_authToken=VALUE``)
# or ``;`` (``...;AccountKey=VALUE;`` in a connection string).
_ASSIGN = re.compile(r"""(?<![^\s'"=(:/;])(""" + _NAME + r")=(" + _VALUE + r")", re.IGNORECASE)
# An environment-style name ending in a short secret word (``ADMIN_PW``, ``GH_PAT``, ``OPENAI_KEY``, ``STRIPE_SK``).
_ENV_ASSIGN = re.compile(r"""(?<![^\s'"=(:/;])([A-Z][A-Z0-9_]*_(?:KEY|PW|PAT|SK|PIN))=(""" + _VALUE + r")")
# A JSON field named like a secret, its quotes maybe escaped: ``{"password":"VALUE"}``, ``{\"token\": \"VALUE\"}``.
_JSON_FIELD = re.compile(r'(\\?"' + _NAME + r'\\?"\s*:\s*\\?")((?:[^"\\]|\\[^"])+)(?=\\?")', re.IGNORECASE)
_LITERAL = re.compile(r"(--from-literal[=\s]['\"]?[^=\s'\"]+=)([^\s'\"]+)")  # kubectl create secret: every value
_JDBC_ORACLE = re.compile(r"(?i)(jdbc:oracle:(?:thin|oci):[^/\s@'\"]*/)[^@\s'\"]+@")  # user/PASS@host
_SQL_PASSWORD = re.compile(r"(?i)(\b(?:password|identified\s+by)\s+)('[^']+'|\\?\"[^\"\\]+\\?\")")  # ALTER USER
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s:/@'\"]*):[^\s@/'\"]+@")
_URL_USER = re.compile(
    r"(?i)\b((?:https?|ftps?)://)[^\s:/@'\"]+@"
)  # ``https://TOKEN@github.com``: userinfo is a secret
_QUERY = re.compile(
    r"(?i)([?&;](?:[a-z0-9_.-]*(?:token|secret|pass(?:word|wd)?|pwd|api[_-]?key|apikey|access[_-]?key|sig|signature|credential|auth)[a-z0-9_.-]*|key|[a-z0-9_.-]*[_-]key)=)[^&\s'\"#;]+"
)
_SHAPES = re.compile(
    r"\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}"
    r"|sk-[A-Za-z0-9_-]{16,}|sk-(?:live|test|proj|ant|or)-[A-Za-z0-9_-]{6,}|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{6,}|whsec_[A-Za-z0-9]{16,}"
    r"|xox[abposr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|npm_[A-Za-z0-9]{30,}"
    r"|hf_[A-Za-z0-9]{30,}|pypi-[A-Za-z0-9_-]{40,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+)"
)


def mask(cmd: str) -> str:
    """``cmd`` with every credential-looking value replaced by ``****``."""
    cmd = _piped(cmd)
    cmd = _mask_words(cmd)
    cmd = _headers(cmd)
    cmd = _FLAG.sub(_flag, cmd)
    cmd = _ASSIGN.sub(_assign, cmd)
    cmd = _ENV_ASSIGN.sub(_assign, cmd)
    cmd = _JSON_FIELD.sub(r"\1" + MASK, cmd)
    cmd = _LITERAL.sub(r"\1" + MASK, cmd)
    cmd = _JDBC_ORACLE.sub(r"\1" + MASK + "@", cmd)
    cmd = _SQL_PASSWORD.sub(_sql, cmd)
    cmd = _URL_PASSWORD.sub(r"\1:" + MASK + "@", cmd)
    cmd = _URL_USER.sub(r"\1" + MASK + "@", cmd)
    cmd = _QUERY.sub(r"\1" + MASK, cmd)
    return _SHAPES.sub(MASK, cmd)


def _headers(cmd: str) -> str:
    """``Name: [scheme ]****``: the value runs to the closing quote if quoted, else to the end of the word."""
    out: list[str] = []
    pos = 0
    for m in _HEADER.finditer(cmd):
        if m.start() < pos:
            continue
        end = m.end()
        q = cmd[m.start() - 1] if m.start() > 0 and cmd[m.start() - 1] in "'\"" else ""
        if not q and end < len(cmd) and cmd[end] in "'\"" and not m.group(3):  # httpie: Name:'value'
            q = cmd[end]
            end += 1
        stop = cmd.find(q, end) if q else -1
        if stop < 0:
            stop = end
            while stop < len(cmd) and not cmd[stop].isspace() and cmd[stop] not in "'\"":
                stop += 2 if cmd[stop] == "\\" else 1  # ``Bearer\ TOKEN``: an escaped space is in the value
            stop = min(stop, len(cmd))
        if stop == end or cmd[end:stop] == MASK:
            continue
        out.append(cmd[pos:end])
        out.append(MASK)
        pos = stop
    out.append(cmd[pos:])
    return "".join(out)


def _flag(m: re.Match[str]) -> str:
    name = m.group(1).lower()
    if name.endswith(_NOT_A_VALUE) or _plain(m.group(3)) or MASK in m.group(3):
        return m.group(0)
    return m.group(1) + m.group(2) + _quoted_mask(m.group(3))


def _assign(m: re.Match[str]) -> str:
    if _plain(m.group(2)) or MASK in m.group(2):
        return m.group(0)
    return m.group(1) + "=" + _quoted_mask(m.group(2))


def _sql(m: re.Match[str]) -> str:
    quote = m.group(2)[:2] if m.group(2).startswith("\\") else m.group(2)[0]
    return m.group(1) + quote + MASK + quote


def _plain(value: str) -> bool:
    return value.strip("'\"").lower() in _PLAIN or value in _PLAIN


def _quoted_mask(raw: str) -> str:
    """``MASK`` in the quotes ``raw`` had, if any."""
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        return raw[0] + MASK + raw[0]
    return MASK


def _unquote(raw: str) -> str:
    return raw.replace("'", "").replace('"', "").replace("\\", "")


def _after(raw: str, sep: str) -> str | None:
    """``raw`` with what follows the first ``sep`` masked (closing quote kept); None if nothing follows."""
    i = raw.find(sep)
    if i < 0:
        return None
    q = raw[-1] if raw[-1] in "'\"" and raw.count(raw[-1]) >= 2 else ""
    rest = raw[i + 1 : len(raw) - len(q)]
    if not rest or rest == MASK:
        return None
    return raw[: i + 1] + MASK + q


def _proxy_user(raw: str) -> str | None:
    """A proxy given as ``user:PASS@host`` (no scheme: the URL pass masks the others)."""
    at = raw.rfind("@")
    if at < 0 or "://" in raw or ":" not in raw[:at]:
        return None
    i = raw.find(":", raw.find("=") + 1)
    return raw[: i + 1] + MASK + raw[at:] if i < at and raw[i + 1 : at] != MASK else None


def _oracle(raw: str) -> str | None:
    """``user/PASS@db`` (sqlplus and the other Oracle tools) with the password masked."""
    i = raw.find("/")
    j = raw.find("@", i)
    j = j if j >= 0 else len(raw) - (1 if raw[-1] in "'\"" and raw.count(raw[-1]) >= 2 else 0)
    return raw[: i + 1] + MASK + raw[j:] if raw[i + 1 : j] not in ("", MASK) else None


def _families(base: str) -> set[str]:
    """The tool families a word names (``mysql``, ``curl``, ``httpie``...)."""
    fams = set()
    if base in _MYSQL_LIKE:
        fams.add("mysql")
    if base in _CURL_LIKE:
        fams.add("http-client")
    if base in _HTTPIE:
        fams.add("httpie")
    if base in _LOGIN_TOOLS:
        fams.add("login-tool")
    if base in ("curl", "sshpass", "redis-cli", "gh", "vault", "sudo") or base in _NEXT_IS_SECRET or base in _USER_SEP:
        fams.add(base)
    if base in _ATTACHED_SECRET:
        fams.add("7z")
    if base in _ORACLE:
        fams.add("oracle")
    if base in ("config", "configure"):  # ``aws configure set NAME VALUE``, ``git config NAME VALUE``
        fams.add("config")
    if base in ("htpasswd", "vercel"):
        fams.add(base)
    return fams


def _stdin_secret(words: list[str]) -> bool:
    """Whether a simple command reads a secret from stdin (``--password-stdin``, ``--with-token``, ``sudo -S``,
    ``vercel env add``)."""
    tools = {w.rsplit("/", 1)[-1] for w in words}
    if "sudo" in tools and ("-S" in words or "--stdin" in words):
        return True
    if "vercel" in tools and "env" in words and "add" in words:
        return True
    return any(
        w == "--with-token" or (w.startswith("-") and w.endswith("stdin") and _SECRET_NAME.fullmatch(w) is not None)
        for w in words
    )


def _piped(cmd: str) -> str:
    """The words ``echo``/``printf`` pipe into a command that reads a secret from stdin, masked
    (``echo PASS | docker login --password-stdin``); a variable (``$PW``) stays."""
    if "|" not in cmd:
        return cmd
    cmds: list[list[re.Match[str]]] = [[]]
    seps: list[str] = []
    for m in _WORD.finditer(cmd):
        if m.group(0) in _SEPARATORS:
            cmds.append([])
            seps.append(m.group(0))
        else:
            cmds[-1].append(m)
    spans: list[tuple[int, int, str]] = []
    for i, sep in enumerate(seps):
        src = cmds[i]
        if sep not in ("|", "|&") or not src or _unquote(src[0].group(0)).rsplit("/", 1)[-1] not in ("echo", "printf"):
            continue
        if not _stdin_secret([_unquote(m.group(0)) for m in cmds[i + 1]]):
            continue
        for m in src[1:]:
            raw = m.group(0)
            if raw.startswith("-") or _unquote(raw).startswith("$") or MASK in raw or "%" in raw:  # printf's format
                continue
            spans.append((m.start(), m.end(), _quoted_mask(raw)))
    for start, end, new in reversed(spans):
        cmd = cmd[:start] + new + cmd[end:]
    return cmd


def _mask_words(cmd: str) -> str:
    """First pass: values whose meaning depends on the tool and the flag before them."""
    out: list[str] = []
    pos = 0
    fams: set[str] = set()  # tool families named so far in this simple command
    pending = ""  # what the previous word asks of this one
    sep = ":"  # between the user and the password in a ``user`` value
    secret_flag = False  # the previous word is a secret-named flag (``--with-token <<< VALUE``)
    hp = ""  # htpasswd: its flags so far, then "=" and a mark per positional word
    for m in _WORD.finditer(cmd):
        raw = m.group(0)
        word = _unquote(raw)
        new: str | None = None
        if raw in _SEPARATORS or raw.strip(";|&()") == "":
            fams = set()
            pending = hp = ""
        elif "htpasswd" in fams and word.rsplit("/", 1)[-1] != "htpasswd":
            hp, new = _htpasswd(hp, word, raw)
        elif pending:
            if pending == "user":
                new = _after(raw, sep)
            elif pending == "proxy":
                new = _proxy_user(raw)
            elif pending == "cookie":
                new = _quoted_mask(raw) if "=" in word else None
            elif not word.startswith("-"):
                new = _quoted_mask(raw)
            pending = ""
        else:
            if len(raw) > 2 and raw[0] == raw[-1] and raw[0] in "'\"" and any(c.isspace() for c in raw):
                inner = _mask_words(raw[1:-1])  # a command in a string: sh -c '...'
                new = raw[0] + inner + raw[0] if inner != raw[1:-1] else None
            fams |= _families(word.rsplit("/", 1)[-1])
            if word in ("env", "add") and "vercel" in fams:  # ``vercel env add NAME <<< VALUE``
                fams.add("vercel-" + word)
            if word == "login" and "login-tool" in fams:
                fams.add("login")
            elif word == "login" and "vault" in fams:
                fams.add("vault-login")
            elif word == "secret" and "gh" in fams:
                fams.add("gh-secret")
            after_flag, secret_flag = secret_flag, word.startswith("-") and _SECRET_NAME.fullmatch(word) is not None
            secret_flag = secret_flag or ("sudo" in fams and word in ("-S", "--stdin"))  # sudo -S <<< PASSWORD
            secret_flag = secret_flag or {"vercel-env", "vercel-add"} <= fams
            user_tool = next((t for t in fams if t in _USER_SEP), "") if fams else ""
            sep = _USER_SEP.get(user_tool, ":")
            curl = "http-client" in fams
            short = word.startswith("-") and not word.startswith("--") and len(word) > 2 and MASK not in word
            user_flag = word in _USER_FLAGS or (word == "-U" and "curl" in fams)
            if (curl and user_flag) or ("httpie" in fams and word in ("-a", "--auth")):
                pending = "user"
            elif curl and word in _COOKIE_FLAGS:
                pending = "cookie"
            elif curl and (word.startswith(("--user=", "--proxy-user=")) or (short and word.startswith("-u"))):
                new = _after(raw, ":")
            elif (
                (word == "-p" and fams & {"sshpass", "login"})
                or (word == "-a" and "redis-cli" in fams)
                or word == "--otp"  # npm publish --otp CODE: a one-time password
            ):
                pending = "secret"
            elif word.startswith("--otp=") and len(word) > 6 and MASK not in word:
                new = raw[: raw.find("=") + 1] + MASK
            elif short and word.startswith("-p") and fams & {"mysql", "sshpass", "login", "7z"}:
                new = raw[:2] + MASK
            elif any(word in _NEXT_IS_SECRET.get(t, ()) for t in fams) or (
                "gh-secret" in fams and word in ("-b", "--body")
            ):
                pending = "secret"
            elif "gh-secret" in fams and word.startswith(("--body=", "-b")) and len(word) > 2 and MASK not in word:
                new = raw[: raw.find("=") + 1 or 2] + MASK
            elif user_tool and (word in ("-U", "-u", "--user") or word.startswith(("-U", "-u", "--user="))):
                if word in ("-U", "-u", "--user"):
                    pending = "user"
                else:
                    new = _after(raw, sep)
            elif curl and word in ("-x", "--proxy"):
                pending = "proxy"
            elif curl and word.startswith("--proxy="):
                new = _proxy_user(raw)
            elif word.startswith("<<<") and after_flag:  # a here-string fed to ``--with-token``, ``--password-stdin``
                if word == "<<<":
                    pending = "secret"
                else:
                    new = "<<<" + MASK
            elif "config" in fams and not word.startswith("-") and _SECRET_NAME.fullmatch(word):
                pending = "" if word.lower().endswith(_NOT_A_VALUE) else "secret"
            elif word.startswith(("-", "/", "@")) or MASK in word:
                pass
            elif "vault-login" in fams and "=" not in word and word != "login":
                new, fams = MASK, fams - {"vault-login"}
            elif "oracle" in fams and "/" in word and ":" not in word.split("/", 1)[0]:
                new = _oracle(raw)
        if new is not None:
            out.append(cmd[pos : m.start()])
            out.append(new)
            pos = m.end()
    out.append(cmd[pos:])
    return "".join(out)


def _htpasswd(state: str, word: str, raw: str) -> tuple[str, str | None]:
    """One word after ``htpasswd``: the new state and the word's replacement. With ``-b`` the password is
    the third positional word (``FILE USER PASS``), the second with ``-n`` (``USER PASS``)."""
    flags, eq, marks = state.partition("=")
    if flags.endswith("+"):  # the value of -C / -r
        return flags[:-1], None
    if not eq and word.startswith("-") and len(word) > 1 and not word.startswith("--"):
        return flags + word[1:] + ("+" if word in ("-C", "-r") else ""), None
    marks += "."
    at = 2 if "n" in flags else 3
    new = _quoted_mask(raw) if "b" in flags and len(marks) == at and MASK not in raw else None
    return flags + "=" + marks, new
