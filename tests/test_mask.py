"""Credential masking: every common form masked, ordinary arguments left alone, nothing stored or named in clear."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from helpers import path_with, rtk_argv, stub_tool
from rtk import tee, tracking
from rtk.text import slug
from rtk.tracking import db
from rtk.tracking.mask import mask

# (command, the secret in it, the command as stored)
MASKED = [
    ("curl -u admin:SuperSecretPw1 http://h/x", "SuperSecretPw1", "curl -u admin:**** http://h/x"),
    ("curl -uadmin:SuperSecretPw1 http://h/x", "SuperSecretPw1", "curl -uadmin:**** http://h/x"),
    ("curl --user admin:SuperSecretPw1 http://h/x", "SuperSecretPw1", "curl --user admin:**** http://h/x"),
    ("curl --user=admin:SuperSecretPw1 http://h/x", "SuperSecretPw1", "curl --user=admin:**** http://h/x"),
    ("curl -U proxyuser:Pr0xyPass http://h/x", "Pr0xyPass", "curl -U proxyuser:**** http://h/x"),
    ("curl --proxy-user proxyuser:Pr0xyPass http://h/x", "Pr0xyPass", "curl --proxy-user proxyuser:**** http://h/x"),
    ("curl -s -u 'admin:two words' http://h/x", "two words", "curl -s -u 'admin:****' http://h/x"),
    ("wget --user=bob --password=W9etPass http://h/f", "W9etPass", "wget --user=bob --password=**** http://h/f"),
    ("wget --http-user bob:W9etPass http://h/f", "W9etPass", "wget --http-user bob:**** http://h/f"),
    ("http -a bob:HttpiePw http://h", "HttpiePw", "http -a bob:**** http://h"),
    ("mysql -pMyCliPass123 db", "MyCliPass123", "mysql -p**** db"),
    ("mysql -u root -pMyCliPass123 -h db.local shop", "MyCliPass123", "mysql -u root -p**** -h db.local shop"),
    ("mysqldump -uroot -pDumpPw9 shop", "DumpPw9", "mysqldump -uroot -p**** shop"),
    ("mysqladmin -pAdminPw7 status", "AdminPw7", "mysqladmin -p**** status"),
    ("mariadb -pMariaPw5 -e 'select 1'", "MariaPw5", "mariadb -p**** -e 'select 1'"),
    ("docker exec -i db mysql -uroot -pInCont4iner shop", "InCont4iner", "docker exec -i db mysql -uroot -p**** shop"),
    ("sh -c 'mysql -pNestedPw1 shop < dump.sql'", "NestedPw1", "sh -c 'mysql -p**** shop < dump.sql'"),
    ("mysql --password=EqPass22 shop", "EqPass22", "mysql --password=**** shop"),
    ("psql --password=PgFlagPw shop", "PgFlagPw", "psql --password=**** shop"),
    ("tool --password hunter2 run", "hunter2", "tool --password **** run"),
    ("tool --token=abc123tok run", "abc123tok", "tool --token=**** run"),
    (
        "npm config set //registry.npmjs.org/:_authToken=NpmRegTok3n",
        "NpmRegTok3n",
        "npm config set //registry.npmjs.org/:_authToken=****",
    ),
    ("echo //npm.corp.local/:_password=QmFzZTY0UHc= >> .npmrc", "QmFzZTY0UHc=", "echo //npm.corp.local/:_password=**** >> .npmrc"),
    ("tool --api-key k3yvalue run", "k3yvalue", "tool --api-key **** run"),
    ("tool --client-secret 'cl13nt secret' run", "cl13nt secret", "tool --client-secret '****' run"),
    ("PGPASSWORD=PgEnvPw1 psql -h db shop", "PgEnvPw1", "PGPASSWORD=**** psql -h db shop"),
    ("MYSQL_PWD=MyEnvPw2 mysql shop", "MyEnvPw2", "MYSQL_PWD=**** mysql shop"),
    ("env DB_PASSWORD='two words' ./run", "two words", "env DB_PASSWORD='****' ./run"),
    ("GITHUB_TOKEN=plainvalue123 gh pr list", "plainvalue123", "GITHUB_TOKEN=**** gh pr list"),
    ("docker run -e API_KEY=dockerK3y img", "dockerK3y", "docker run -e API_KEY=**** img"),
    (
        "git -c http.extraheader='Authorization: Basic QmFzaWNBdXRo' fetch",
        "QmFzaWNBdXRo",
        "git -c http.extraheader='Authorization: Basic ****' fetch",
    ),
    ("git clone https://user:s3cr3tPw@github.com/o/r.git", "s3cr3tPw", "git clone https://user:****@github.com/o/r.git"),
    (
        "git clone https://x-access-token:AccTok99@github.com/o/r.git",
        "AccTok99",
        "git clone https://x-access-token:****@github.com/o/r.git",
    ),
    ("redis-cli -u redis://:RedisUrlPw@cache:6379 ping", "RedisUrlPw", "redis-cli -u redis://:****@cache:6379 ping"),
    ("psql postgresql://app:pa55word@db:5432/prod", "pa55word", "psql postgresql://app:****@db:5432/prod"),
    ("curl 'http://h/big.json?token=QueryTok3nSecretXYZ'", "QueryTok3nSecretXYZ", "curl 'http://h/big.json?token=****'"),
    ("curl http://h/api?x=1&key=QueryKey42", "QueryKey42", "curl http://h/api?x=1&key=****"),
    (
        "curl 'http://h/api?api_key=Qk1&secret=QuerySecret7'",
        "QuerySecret7",
        "curl 'http://h/api?api_key=****&secret=****'",
    ),
    (
        "curl 'https://s3/b/o?X-Amz-Signature=abcdef0123&X-Amz-Credential=AKID'",
        "abcdef0123",
        "curl 'https://s3/b/o?X-Amz-Signature=****&X-Amz-Credential=****'",
    ),
    ("curl -H 'Authorization: Bearer abc.def.ghi' https://api.x", "abc.def.ghi", "curl -H 'Authorization: Bearer ****' https://api.x"),
    ('curl -H "Authorization: token BearTok55" https://api.x', "BearTok55", 'curl -H "Authorization: token ****" https://api.x'),
    ('curl -H "X-Api-Key: k3y-value" https://api.x', "k3y-value", 'curl -H "X-Api-Key: ****" https://api.x'),
    ("curl -H 'Cookie: sid=CookieVal1; theme=dark' https://x", "CookieVal1", "curl -H 'Cookie: ****' https://x"),
    ("curl --header 'PRIVATE-TOKEN: GlTok3n' https://gitlab/api", "GlTok3n", "curl --header 'PRIVATE-TOKEN: ****' https://gitlab/api"),
    ("curl -H X-Auth-Token:Unquoted9 https://x", "Unquoted9", "curl -H X-Auth-Token:**** https://x"),
    ("curl -b 'session=CookieFlag8' https://x", "CookieFlag8", "curl -b '****' https://x"),
    ("http https://api.x Authorization:'Bearer HttpieBearer1'", "HttpieBearer1", "http https://api.x Authorization:'****'"),
    ("grep -r sk-live-GREPSECRET .", "sk-live-GREPSECRET", "grep -r **** ."),
    ("rg ghp_abcdefghijklmnopqrstuvwx123 src", "ghp_abcdefghijklmnopqrstuvwx123", "rg **** src"),
    ("echo sk-proj-abcdefghijklmnopqrstuv", "sk-proj-abcdefghijklmnopqrstuv", "echo ****"),
    ("stripe charges list sk_live_4eC39HqLyjWDarjtT1", "sk_live_4eC39HqLyjWDarjtT1", "stripe charges list ****"),
    ("aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE", "aws configure set aws_access_key_id ****"),
    ("curl https://slack/api -d token=xoxb-1234567890-abcdef", "xoxb-1234567890-abcdef", "curl https://slack/api -d token=****"),
    ("glab auth login --hostname h glpat-abcdefghij0123456789", "glpat-abcdefghij0123456789", "glab auth login --hostname h ****"),
    ("echo eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4", "SflKxwRJSMeKKF2QT4", "echo ****"),
    ("sshpass -p SshPassPw ssh host", "SshPassPw", "sshpass -p **** ssh host"),
    ("sshpass -pSshPassPw ssh host", "SshPassPw", "sshpass -p**** ssh host"),
    ("redis-cli -a RedisPw3 ping", "RedisPw3", "redis-cli -a **** ping"),
    ("docker login -u me -p DockerPw4 registry.io", "DockerPw4", "docker login -u me -p **** registry.io"),
    ("keytool -list -storepass StorePw6 -keystore ks.jks", "StorePw6", "keytool -list -storepass **** -keystore ks.jks"),
    ("openssl pkcs12 -in a.p12 -passin pass:OsslPw8", "OsslPw8", "openssl pkcs12 -in a.p12 -passin ****"),
    # review10: tool-specific password flags and positional secrets that went through in clear
    ("az login -u me -p AzPw1", "AzPw1", "az login -u me -p ****"),
    ("az login --service-principal -u app -p 'Az Pw2' --tenant t", "Az Pw2", "az login --service-principal -u app -p '****' --tenant t"),
    ("az login -pAzPw3", "AzPw3", "az login -p****"),
    ("az storage blob list --account-key StorKey1 --account-name n", "StorKey1", "az storage blob list --account-key **** --account-name n"),
    ("az x --connection-string 'Proto=https;AccountKey=ConnKey1;'", "ConnKey1", "az x --connection-string 'Proto=https;AccountKey=****;'"),
    ("gh auth login --with-token <<< plainTokenValue1", "plainTokenValue1", "gh auth login --with-token <<< ****"),
    ("gh auth login --with-token <<<plainTokenValue2", "plainTokenValue2", "gh auth login --with-token <<<****"),
    ("docker login -u me --password-stdin <<< 'Dk Pw5'", "Dk Pw5", "docker login -u me --password-stdin <<< '****'"),
    ("git clone https://tok777abc@github.com/o/r", "tok777abc", "git clone https://****@github.com/o/r"),
    ("ssh-keygen -N KeyPass1 -f k", "KeyPass1", "ssh-keygen -N **** -f k"),
    ("openssl enc -aes256 -k EncPw1 -in f", "EncPw1", "openssl enc -aes256 -k **** -in f"),
    ("zip -P ZipPw1 a.zip f", "ZipPw1", "zip -P **** a.zip f"),
    ("unzip -P ZipPw2 a.zip", "ZipPw2", "unzip -P **** a.zip"),
    ("7z a -pZipPw3 a.7z f", "ZipPw3", "7z a -p**** a.7z f"),
    ("mongosh -u u -p MongoPw1 h", "MongoPw1", "mongosh -u u -p **** h"),
    ("sqlcmd -S s -U sa -P SqlPw1 -Q x", "SqlPw1", "sqlcmd -S s -U sa -P **** -Q x"),
    ("ldapsearch -x -D cn=admin -w LdapPw1 -b dc=x", "LdapPw1", "ldapsearch -x -D cn=admin -w **** -b dc=x"),
    ("smbclient //h/s -U user%SmbPw1", "SmbPw1", "smbclient //h/s -U user%****"),
    ("lftp -u user,LftpPw1 host", "LftpPw1", "lftp -u user,**** host"),
    ("twine upload -u me -p TwPw1 dist/x", "TwPw1", "twine upload -u me -p **** dist/x"),
    ("vault login VaultTok1", "VaultTok1", "vault login ****"),
    ("gh secret set NAME -b SecretBody1", "SecretBody1", "gh secret set NAME -b ****"),
    ("gh secret set NAME --body=SecretBody2", "SecretBody2", "gh secret set NAME --body=****"),
    ("curl -x u:ProxyPw1@proxy:8080 http://h", "ProxyPw1", "curl -x u:****@proxy:8080 http://h"),
    ("skopeo copy --src-creds u:SkCreds1 docker://a docker://b", "SkCreds1", "skopeo copy --src-creds **** docker://a docker://b"),
    ("aws configure set aws_secret_access_key AwsSet1", "AwsSet1", "aws configure set aws_secret_access_key ****"),
    ("npm config set //r.io/:_authToken NpmTok1", "NpmTok1", "npm config set //r.io/:_authToken ****"),
    ("sqlplus scott/OraPw1@db", "OraPw1", "sqlplus scott/****@db"),
    ("sudo -S <<< SudoPw1 apt update", "SudoPw1", "sudo -S <<< **** apt update"),
    ("curl --header=Authorization:Bearer\\ EscTok1 https://x", "EscTok1", "curl --header=Authorization:**** https://x"),
    ("http :8080 Authorization:Bearer\\ EscTok2", "EscTok2", "http :8080 Authorization:****"),
    ("sqlplus -s 'scott/OraPw2@//h:1521/svc' @q.sql", "OraPw2", "sqlplus -s 'scott/****@//h:1521/svc' @q.sql"),
    (
        "gh api -H 'X-GitHub-Api-Version: 2022' -f token=FieldTok1 /x",
        "FieldTok1",
        "gh api -H 'X-GitHub-Api-Version: 2022' -f token=**** /x",
    ),
    # review 11: positional passwords, one-time codes, secrets fed to stdin from the line itself
    ("htpasswd -b .htpasswd alice HtPw1", "HtPw1", "htpasswd -b .htpasswd alice ****"),
    ("htpasswd -bc /etc/nginx/h alice 'Ht Pw2'", "Ht Pw2", "htpasswd -bc /etc/nginx/h alice '****'"),
    ("htpasswd -nb alice HtPw3", "HtPw3", "htpasswd -nb alice ****"),
    ("htpasswd -B -C 10 -b f alice HtPw4", "HtPw4", "htpasswd -B -C 10 -b f alice ****"),
    ("vercel env add API_KEY production <<< VcVal1", "VcVal1", "vercel env add API_KEY production <<< ****"),
    ("vercel env add NAME <<<VcVal2", "VcVal2", "vercel env add NAME <<<****"),
    ("npm publish --otp 123456", "123456", "npm publish --otp ****"),
    ("npm publish --otp=654321", "654321", "npm publish --otp=****"),
    # `echo SECRET |` into a command reading a secret from stdin puts the secret on the command line
    # (it was pinned unmasked in ORDINARY): the echoed words are masked, a variable stays.
    ("echo DkPw9 | docker login --password-stdin r.io", "DkPw9", "echo **** | docker login --password-stdin r.io"),
    ("echo -n 'Dk Pw10' | docker login -u me --password-stdin", "Dk Pw10", "echo -n '****' | docker login -u me --password-stdin"),
    ("printf '%s' GhTok9 | gh auth login --with-token", "GhTok9", "printf '%s' **** | gh auth login --with-token"),
    ("echo SudoPw2 | sudo -S apt update", "SudoPw2", "echo **** | sudo -S apt update"),
    ("echo VcVal3 | vercel env add NAME production", "VcVal3", "echo **** | vercel env add NAME production"),
    # review 11: environment names ending in a short secret word, JSON bodies, kubectl literals, JDBC/SQL passwords
    ("X_ADMIN_PW=AdmPw11 ./deploy.sh", "AdmPw11", "X_ADMIN_PW=**** ./deploy.sh"),
    ("export GH_PAT=PatVal11", "PatVal11", "export GH_PAT=****"),
    ("OPENAI_KEY=OaKey11 python run.py", "OaKey11", "OPENAI_KEY=**** python run.py"),
    ("docker run -e STRIPE_SK=StrSk11 img", "StrSk11", "docker run -e STRIPE_SK=**** img"),
    ("docker run --env=MY_PW=DkEnv11 img", "DkEnv11", "docker run --env=MY_PW=**** img"),
    ("curl -d '{\"password\":\"JsPw11\"}' http://h", "JsPw11", "curl -d '{\"password\":\"****\"}' http://h"),
    ('curl -d "{\\"api_key\\": \\"JsKey11\\"}" http://h', "JsKey11", 'curl -d "{\\"api_key\\": \\"****\\"}" http://h'),
    ("kubectl create secret generic s --from-literal=key=KcLit11", "KcLit11", "kubectl create secret generic s --from-literal=key=****"),
    ("kubectl create secret generic s --from-literal user=KcLit12", "KcLit12", "kubectl create secret generic s --from-literal user=****"),
    ("java -jar a.jar jdbc:oracle:thin:scott/OraPw11@db:1521/x", "OraPw11", "java -jar a.jar jdbc:oracle:thin:scott/****@db:1521/x"),
    ('psql -c "ALTER USER app PASSWORD \'SqlPw11\'"', "SqlPw11", 'psql -c "ALTER USER app PASSWORD \'****\'"'),
    ("mysql -e \"CREATE USER u IDENTIFIED BY 'SqlPw12'\"", "SqlPw12", "mysql -e \"CREATE USER u IDENTIFIED BY '****'\""),
    ("doctl auth init -t DoTok11", "DoTok11", "doctl auth init -t ****"),
]  # fmt: skip

# Arguments that look a little like the forms above and are not credentials.
ORDINARY = [
    "git log -p", "git log -p --stat", "grep -p x a.txt", "psql -p 5432 -h db -U app shop", "psql -h db -p5432 shop",
    "git push -u origin main", "git add -u", "sort -u words.txt", "docker run -u 1000:1000 -p 8080:80 img",
    "docker run -p 8080:80 img", "ssh -p 2222 dev@host", "ssh -o PasswordAuthentication=no host",
    "scp -P 2222 a.txt dev@host:/tmp", "git clone git@github.com:org/repo.git", "curl http://localhost:8080/api?page=2",
    "curl -u admin http://h/x", "curl -o out.json http://h/a", "mysql -u root -p shop", "mysql -P 3306 -h db shop",
    "grep -rn password src", "grep -r token .", "rg -p pattern", "pytest -k test_token_refresh", "git log --author=bob",
    "kubectl get secrets -n prod", "git commit -m 'rotate the token'", "cat ~/.ssh/id_rsa.pub", "tar -xzf a.tgz",
    "make -j4", "ls -la src", "git diff HEAD~1 -- auth.py", "find . -name '*.key'", "docker login -u me registry.io",
    "echo $PASSWORD", "npm install --save-dev @types/node", "git status", "cargo test -p mycrate",
    "pip install -r requirements.txt", "go test ./... -run TestAuth", "uv run pytest tests/test_auth.py::test_login",
    "curl -b cookies.txt https://x", "wget -c http://h/file.iso", "wget -U 'Mozilla/5.0 (X11: Linux)' http://h/f",
    "git log -p --author=alice -- src/", "grep -e 30 -e 29 a.txt",
    # (`echo password | docker login --password-stdin r.io` was here: the echoed word is the password, now masked)
    "echo $PASSWORD | docker login --password-stdin r.io", "echo hi | grep h", "htpasswd -c .htpasswd alice",
    "htpasswd -n alice", "htpasswd -D .htpasswd alice", "vercel env ls", "npm publish --tag next",
    "pip install sk-video rk-tools", "git checkout task-runner-refactor",
    "7z a -p a.7z f", "gh pr create -b 'body text'", "curl -x proxy:8080 http://h", "aws configure set region eu-west-1",
    "git config --global credential.helper store", "git config user.name bob", "sqlplus / as sysdba",
    "sqlplus /nolog @x.sql", "git clone https://github.com/o/r.git", "git clone ssh://git@github.com/o/r",
    "gh auth login --with-token < token.txt", "sudo -S apt update", "zip -r a.zip src", "az login --use-device-code",
    "java -jar a.jar jdbc:oracle:thin:@//db:1521/x", "kubectl get secret s -o yaml", "psql -c 'SELECT password FROM t'",
    "curl -d '{\"name\":\"bob\"}' http://h", "doctl compute droplet list -t", "CARGO_PROFILE=dev cargo build",
]  # fmt: skip


def test_the_tables_are_large_enough() -> None:
    assert len(MASKED) >= 40 and len(ORDINARY) >= 40


@pytest.mark.parametrize(("cmd", "secret", "stored"), MASKED)
def test_credentials_are_masked_in_every_form(cmd: str, secret: str, stored: str) -> None:
    assert mask(cmd) == stored
    assert secret not in stored
    # the cheap pre-check in front of the masker lets every form through
    assert tracking.mask_command(cmd) == stored


@pytest.mark.parametrize("cmd", ORDINARY)
def test_ordinary_arguments_are_not_masked(cmd: str) -> None:
    assert mask(cmd) == cmd
    assert tracking.mask_command(cmd) == cmd


def test_masking_is_stable() -> None:
    for _, _, stored in MASKED:
        assert mask(stored) == stored


@pytest.mark.parametrize(
    ("argv", "secret", "name"),
    [
        (["curl", "http://h/big.json?token=QueryTok3nSecretXYZ"], "QueryTok3nSecretXYZ", "curl_big.json_token"),
        (["curl", "https://admin:UrlPw1@h"], "UrlPw1", "curl_admin_h"),
        (["rg", "sk-live-GREPSECRET", "."], "GREPSECRET", "rg_."),
        (["git", "status"], "", "git_status"),
    ],
)
def test_recovery_file_names_carry_no_secret(argv: list[str], secret: str, name: str) -> None:
    assert slug(argv) == name  # the older names, still read in transcripts
    path = tee.write(argv, b"raw output\n")
    assert path is not None and Path(path).name.endswith(f"_{argv[0]}_{tee.content_id(path)}.log")
    assert not secret or secret not in path


def _journal_and_db() -> str:
    pending = Path(tracking.pending_path())
    return (pending.read_text() if pending.exists() else "") + _db()


def _db() -> str:
    db.ingest()
    conn = sqlite3.connect(tracking.db_path())
    try:
        rows = conn.execute("SELECT original_cmd, rtk_cmd, tee_path FROM commands").fetchall()
        fails = conn.execute("SELECT raw_command, error_message FROM parse_failures").fetchall()
    finally:
        conn.close()
    return repr(rows) + repr(fails)


def test_proxy_and_curl_runs_store_no_password(tmp_path: Path) -> None:
    bindir = stub_tool(tmp_path, "mysql", "exit 0")
    env = dict(os.environ, PATH=path_with(bindir))
    run = dict(env=env, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    p = subprocess.run(rtk_argv("proxy", "mysql", "-pMyCliPass123", "shop"), **run)  # type: ignore[call-overload]
    assert p.returncode == 0
    p = subprocess.run(rtk_argv("curl", "-s", "-u", "admin:SuperSecretPw1", "http://127.0.0.1:9/"), **run)  # type: ignore[call-overload]
    assert p.returncode == 7  # connection refused: curl's own exit code
    stored = _journal_and_db()
    assert "mysql -p**** shop" in stored and "admin:****" in stored
    assert "MyCliPass123" not in stored and "SuperSecretPw1" not in stored


def test_grep_secret_is_masked_in_db_and_recovery_file_name(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("key sk-live-GREPSECRET here\n" * 3)
    cfg = tmp_path / "config.toml"
    cfg.write_text('[tee]\nmode = "always"\n')
    env = dict(os.environ, RTK_CONFIG=str(cfg))
    p = subprocess.run(
        rtk_argv("grep", "-r", "sk-live-GREPSECRET", "."), cwd=tmp_path, env=env, capture_output=True, timeout=60
    )
    assert p.returncode == 0 and b"notes.txt" in p.stdout
    stored = _journal_and_db()
    assert "grep -r **** ." in stored and "GREPSECRET" not in stored
    files = os.listdir(tee.directory())
    assert files and not [f for f in files if "GREPSECRET" in f]


def test_journal_lines_of_older_versions_are_masked_on_ingest() -> None:
    # A line as an rtk without the -p rule wrote it: the password in clear.
    line = "\t".join(
        [tracking.FORMAT, "C", tracking.now_iso(), "mysql -pOldJournalPw shop", "rtk mysql -pOldJournalPw shop",
         "", "0", "0", "5", "/p", "0", "0", ""]
    )  # fmt: skip
    fail = "\t".join([tracking.FORMAT, "F", tracking.now_iso(), "mysql -pOldJournalPw x", "mysql", "boom", "1"])
    tracking.append_raw((line + "\n" + fail + "\n").encode())
    stored = _db()
    assert "mysql -p**** shop" in stored and "rtk mysql -p**** shop" in stored and "mysql -p**** x" in stored
    assert "OldJournalPw" not in stored


def test_migration_masks_rows_stored_in_clear(tmp_path: Path) -> None:
    from rtk.tracking import migrations

    conn = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    migrations.migrate(conn, upto="m004_untrusted_filter_skips")
    conn.execute(
        "INSERT INTO commands (timestamp, original_cmd, rtk_cmd, input_tokens, output_tokens, saved_tokens, savings_pct)"
        " VALUES ('2026-01-01T00:00:00Z', 'curl -u a:OldRowPw h', 'rtk curl -u a:OldRowPw h', 1, 1, 0, 0)"
    )
    conn.execute("INSERT INTO parse_failures (timestamp, raw_command) VALUES ('t', 'mysql -pOldFailPw')")
    assert migrations.migrate(conn)[:2] == ["m005_mask_stored_commands", "m006_restored_lines"]
    assert conn.execute("SELECT original_cmd, rtk_cmd FROM commands").fetchall() == [
        ("curl -u a:**** h", "rtk curl -u a:**** h")
    ]
    assert conn.execute("SELECT raw_command FROM parse_failures").fetchall() == [("mysql -p****",)]


def test_verbose_passthrough_line_is_masked(tmp_path: Path) -> None:
    bindir = stub_tool(tmp_path, "mysql", "exit 3")
    env = dict(os.environ, PATH=path_with(bindir))
    p = subprocess.run(rtk_argv("-v", "mysql", "-pVerbosePw1", "shop"), env=env, capture_output=True, timeout=60)
    assert p.returncode == 3
    assert b"rtk: no filter for this mysql command; passthrough" in p.stderr and b"VerbosePw1" not in p.stderr


def test_verbose_passthrough_line_names_no_argument(tmp_path: Path) -> None:
    """A password of no known shape (``./deploy.sh hunter2``) is not echoed by the line rtk adds."""
    bindir = stub_tool(tmp_path, "deploy.sh", "exit 4")
    env = dict(os.environ, PATH=path_with(bindir))
    p = subprocess.run(rtk_argv("-v", "deploy.sh", "hunter2"), env=env, capture_output=True, timeout=60)
    assert p.returncode == 4
    assert b"rtk: no filter for this deploy.sh command; passthrough" in p.stderr and b"hunter2" not in p.stderr


def test_failure_rows_mask_the_error_text_too() -> None:
    tracking.record_failure(command="env", filter_name="env", error="unrecognized: line 'PGPASSWORD=ErrPw55 x'")
    stored = _db()
    assert "PGPASSWORD=****" in stored and "ErrPw55" not in stored
