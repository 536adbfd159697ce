"""Secrets of every kind, and ordinary text that looks a little like them (shared by tests)."""

from __future__ import annotations

import base64
import random
import string

_rng = random.Random(15)


def _rand(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    + "\n".join(_rand(64, string.ascii_letters + string.digits + "+/") for _ in range(4))
    + "\n-----END RSA PRIVATE KEY-----"
)

# kind -> (the secret, the text it is planted in: {} is the secret)
PLANTED: dict[str, list[tuple[str, str]]] = {
    "openai": [
        (f"sk-proj-{_rand(48)}", "export it: {} then run"),
        (f"sk-{_rand(48)}", "the key {}."),
    ],
    "anthropic": [(f"sk-ant-api03-{_rand(80)}-{_rand(6)}AA", "ANTHROPIC key {} here")],
    "google": [(f"AIza{_rand(35)}", "maps {}"), (f"ya29.{_rand(60)}", "bearer-less {}")],
    "github": [
        (f"ghp_{_rand(36)}", "git push with {}"),
        (f"github_pat_{_rand(22)}_{_rand(59)}", "pat {}"),
    ],
    "gitlab": [(f"glpat-{_rand(20)}", "CI uses {} today")],
    "slack": [
        (f"xoxb-{_rand(12, string.digits)}-{_rand(12, string.digits)}-{_rand(24)}", "bot {}"),
        (
            f"https://hooks.slack.com/services/T{_rand(8).upper()}/B{_rand(8).upper()}/{_rand(24)}",
            "post to {}",
        ),
    ],
    "stripe": [(f"sk_live_{_rand(24)}", "charge with {}"), (f"rk_test_{_rand(24)}", "({})")],
    "aws-access-key": [("AKIA" + _rand(16, string.ascii_uppercase + string.digits), "id {} ok")],
    "aws-secret-key": [
        (_rand(40, string.ascii_letters + string.digits + "/+"), "aws_secret_access_key = {}"),
        (_rand(40, string.ascii_letters + string.digits + "/+"), '"AWS_SECRET_ACCESS_KEY": "{}"'),
    ],
    "private-key": [(PEM, "the key file:\n{}\nend")],
    "jwt": [
        (f"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.{_rand(43)}", "Cookie: session={}"),
    ],
    "url-password": [
        (f"Pw{_rand(10)}", "DATABASE at postgres://admin:{}@db.internal:5432/app"),
        (f"Pw{_rand(10)}", "redis-cli -u redis://:{}@cache.internal:6379"),
    ],
    "env-value": [
        ("hunter2hunter2", "PORT=3000\nDB_PASSWORD={}\nDEBUG=true"),
        ("short", "export MY_SERVICE_TOKEN='{}'"),
        (f"Pg-{_rand(10)}", "    environment:\n      - POSTGRES_PASSWORD={}\n"),
        (f"pw-{_rand(10)}", "PGPASSWORD='{}' psql -h db -c 'select 1'"),
    ],
    "high-entropy": [
        (_rand(32), "use the token {} for the API"),
        (_rand(24) + "9a", "Authorization: Bearer {}"),
        (_rand(30), "secret: {}"),
        (_rand(28), 'client = Client(apiKey="{}")'),
        (_rand(28), "İstanbul AWS: the TOKEN={} works"),
    ],
    "sendgrid": [(f"SG.{_rand(22)}.{_rand(43)}", "SENDGRID_API_KEY is {} now")],
    "telegram": [(f"AA{_rand(33)}", "https://api.telegram.org/bot1234567890:{}/getMe")],
    "groq": [(f"gsk_{_rand(52)}", "Groq: {}")],
    "xai": [(f"xai-{_rand(80)}", "grok with {}")],
    "shopify": [(f"shpat_{_rand(32, string.hexdigits.lower()[:16])}", "shop {}")],
    "digitalocean": [
        (f"dop_v1_{_rand(64, string.hexdigits.lower()[:16])}", "doctl auth init -t {}")
    ],
    "docker": [(f"dckr_pat_{_rand(27)}", "docker login -u ana --password {}")],
    "linear": [(f"lin_api_{_rand(40)}", "linear {}")],
    "notion": [
        (f"ntn_{_rand(11, string.digits)}{_rand(35)}", "notion {}"),
        (f"secret_{_rand(43)}", "({})"),
    ],
    "age": [("AGE-SECRET-KEY-1" + _rand(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"), "# key\n{}\n")],
    "huggingface": [(f"hf_{_rand(34, string.ascii_letters)}", "login with {}")],
    "npm": [(f"npm_{_rand(36)}", "//registry.npmjs.org/:_authToken={}")],
    "pypi": [(f"pypi-AgEIcHlwaS5vcmc{_rand(70)}", "twine upload -p {}")],
    "vault": [(f"hvs.{_rand(95)}", "vault login {}")],
    "basic-auth": [
        ("Tr0ub4dor-3", "curl -u admin:{} https://ci.internal/api"),
        ("YWRtaW46aHVudGVyMg==", "Authorization: Basic {}"),
    ],
    "password": [
        ("R00tPassw0rd", "mysql -u root -p{} app < dump.sql"),
        ("Winter2024!", '"user": "admin", "password": "{}",'),
        ("pa55w0rd-prod", "database:\n  user: app\n  password: {}\n  pool: 5"),
        ("hunter2", "my password is {} if you need it"),
        ("Sup3r-s3cret", "sshpass -p '{}' ssh deploy@host"),
    ],
    "encoded-secret": [
        (
            base64.b64encode(b"DB_PASSWORD=hunter2-prod\nDEBUG=false\n").decode(),
            "data:\n  .env: {}\n",
        )
    ],
}

GIT_LOG = (
    "commit 3f1c2a9b8e7d6c5b4a3928171615141312111009\n"
    "Author: Ana <ana@example.com>\n"
    "Merge: 9e8d7c6 5b4a392\n\n"
    "    fix tokenizer (a1b2c3d4e5f60718293a4b5c6d7e8f9011223344)\n"
)
ORDINARY = [
    GIT_LOG,
    "session 550e8400-e29b-41d4-a716-446655440000 entry a1b2c3d4 parent 0f9e8d7c",
    "018f3a2b-7c4d-7e5f-8a9b-0c1d2e3f4a5b_018f3a2b.jsonl",
    "/home/ana/src/pitui/core/secrets/detect.py:42: def find_secrets(text: str)",
    "aGVsbG8gd29ybGQ= is base64 of hello world; dG9rZW4= of token",
    "the token limit is 128000 and maxTokens=4096; keyboard=us",
    "PORT=3000\nDEBUG=true\nPATH=/usr/local/bin:/usr/bin",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "Use the `key` argument to sort: sorted(items, key=lambda item: item.name)",
    "https://github.com/earendil-works/pi/issues/3129 and https://user@host.example/x",
    "sk-learn is not a key, nor is the word sk-this-is-just-some-hyphenated-prose",
    # Tool call ids holding "key" in their random letters.
    '{"id":"toolu_56xkkkeyxKj3wZzijWnma8H4"} call_kEyPDf0w2E30S3cHvMeipWYe call_MKeykV0uG5weEfAEYfqRGXyy',
    "keyboard_layout_2024_v3x9 tokenizer_v2_checkpoint_77a9f secretary7",
    # Documentation stand-ins, as in a README the agent read.
    "export ANTHROPIC_API_KEY=sk-ant-...\nexport GEMINI_API_KEY=...\nOPENAI_API_KEY=<your key>",
    "DB_PASSWORD=${DB_PASSWORD}\nAPI_TOKEN=xxxxxxxx\nSECRET_KEY=changeme",
    "postgres://user:<password>@localhost/db and https://user:***@host/x",
    # The false positives of issue 25.
    f"key: {_rand(40, '0123456789abcdef')}",
    "token: 0cb7dc4d-7fcc-4ac0-ac45-4adbbeb8548a",
    "Idempotency-Key: 2d39e965-c09f-4d7c-a057-3af6f1acfd7b",
    f"cache key: node-modules-{_rand(64, '0123456789abcdef')}",
    "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "KeyError: 'AKIAI44QH8DHBEXAMPLE'",
    "postgres://user:password@localhost",
    # Names of secrets without their values, settings that are not secrets.
    'SECRET_KEY = env("DJANGO_SECRET_KEY")',
    "password = getpass.getpass()\ndef login(username: str, password: str) -> bool:",
    "passwd:         files systemd\nthe password is required\nEnter password:",
    'curl -u "$USER:$API_TOKEN" https://ci.internal\nmysql -u root -p app\nmysql -p$MYSQL_PW db',
    "PWD=/home/ana/src\nKEY_PATH=/etc/ssl/private/server.key\nPASSWORD_MIN_LENGTH=12",
    "AUTH_URL=https://auth.example.com/oauth\nTOKENIZERS_PARALLELISM=false",
    "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf",
    f"public key: age1{_rand(58, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}",
    f"publishable key pk_test_{_rand(24)}",
    base64.b64encode(b"PORT=3000\nDEBUG=true\nNODE_ENV=production\n").decode(),
]
