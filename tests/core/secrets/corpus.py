"""A realistic redaction corpus: ~70 secrets where they turn up in agent sessions (user and
assistant text, thinking, tool output, tool-call arguments, session names, labels, paths, the
header's cwd), and ~66 harmless lines that look like secrets. Every value is generated here,
random but of its provider's shape: none is a real credential.
"""

from __future__ import annotations

import base64
import random
import string
from dataclasses import dataclass, field

_rng = random.Random(25)
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
BASE64 = ALNUM + "+/"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
AWS_ID = string.ascii_uppercase + "234567"

PLACES = ("user", "assistant", "thinking", "tool-output", "tool-args", "name", "label", "path")
PLACES += ("cwd",)


def rand(n: int, alphabet: str = ALNUM) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def word_password() -> str:
    """A password as people choose them: words, digits and a sign."""
    words = ("Winter", "Blue", "Sky", "Tiger", "Maple", "Orbit", "Pepper", "Falcon")
    return _rng.choice(words) + _rng.choice(words).lower() + rand(3, string.digits) + "!"


def uuid4() -> str:
    h = rand(32, HEX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


@dataclass(frozen=True)
class Planted:
    """A secret in a text at a place of the session; `pieces` must all be gone from an
    export (a secret cut over lines shows as its pieces)."""

    name: str
    secret: str
    text: str
    place: str
    pieces: tuple[str, ...] = field(default=())

    @property
    def parts(self) -> tuple[str, ...]:
        return self.pieces or (self.secret,)


def _plant(name: str, secret: str, template: str, place: str) -> Planted:
    assert place in PLACES, place
    return Planted(name, secret, template.replace("{}", secret), place)


def _pem(label: str) -> str:
    body = "\n".join(rand(64, BASE64) for _ in range(5)) + "\n" + rand(24, BASE64) + "=="
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"


def _wrapped(key: str, before: str, width: int = 80) -> Planted:
    """A key printed in an 80-column terminal: cut into lines of `width` characters."""
    line = before + key
    rows = [line[at : at + width] for at in range(0, len(line), width)]
    pieces = (rows[0][len(before) :], *rows[1:])
    return Planted("wrapped key", key, "\n".join(rows) + "\n$ ", "tool-output", pieces)


def _base64_env() -> Planted:
    env = (
        f"DATABASE_URL=postgres://app:{word_password()}@db.internal:5432/app\n"
        f"STRIPE_SECRET_KEY=sk_live_{rand(24)}\nSESSION_SECRET={rand(32)}\n"
    )
    blob = base64.b64encode(env.encode()).decode()
    text = f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-env\ndata:\n  .env: {blob}\n"
    return _plant("base64 .env", blob, text, "tool-output")


def _secrets() -> list[Planted]:
    pw = word_password
    return [
        # Provider keys of a fixed shape.
        _plant("openai", f"sk-proj-{rand(74)}T3BlbkFJ{rand(74)}", "here is my key: {}", "user"),
        _plant("openai name", f"sk-proj-{rand(48)}", "debug {} quota", "name"),
        _plant("openrouter", f"sk-or-v1-{rand(64, HEX)}", "OPENROUTER_API_KEY={}", "tool-args"),
        _plant(
            "anthropic",
            f"sk-ant-api03-{rand(93)}AA",
            "ANTHROPIC_API_KEY={}\nANTHROPIC_MODEL=claude",
            "tool-output",
        ),
        _plant("anthropic", f"sk-ant-api03-{rand(93)}AA", "try with {} instead", "thinking"),
        _plant(
            "github pat", f"ghp_{rand(36)}", "git push https://{}@github.com/ana/app", "tool-args"
        ),
        _plant("github label", f"ghp_{rand(36)}", "ci token {}", "label"),
        _plant(
            "github fine-grained",
            f"github_pat_{rand(22)}_{rand(59)}",
            "The user pasted {} so the push should work.",
            "thinking",
        ),
        _plant(
            "gitlab", f"glpat-{rand(20)}", "Set CI_JOB_TOKEN to {} in the settings.", "assistant"
        ),
        _plant(
            "slack bot",
            f"xoxb-{rand(12, string.digits)}-{rand(13, string.digits)}-{rand(24)}",
            'SLACK_BOT_TOKEN="{}"',
            "tool-output",
        ),
        _plant(
            "slack webhook",
            f"https://hooks.slack.com/services/T{rand(8).upper()}/B{rand(10).upper()}/{rand(24)}",
            'curl -X POST -d \'{"text": "hi"}\' {}',
            "tool-args",
        ),
        _plant("stripe", f"sk_live_{rand(99)}", "stripe.api_key = '{}'", "user"),
        _plant("stripe restricted", f"rk_live_{rand(24)}", "maybe {} works", "thinking"),
        _plant("stripe webhook", f"whsec_{rand(32)}", "webhook_secret: {}", "tool-output"),
        _plant(
            "aws key id",
            "AKIA" + rand(16, AWS_ID),
            "[default]\naws_access_key_id = {}\nregion = eu-west-1",
            "tool-output",
        ),
        _plant(
            "aws secret",
            rand(40, BASE64),
            "[default]\naws_secret_access_key = {}\n",
            "tool-output",
        ),
        _plant("aws key id path", "AKIA" + rand(16, AWS_ID), "/tmp/creds/{}.json", "path"),
        _plant("google", f"AIza{rand(35)}", "The Maps key is {}.", "assistant"),
        _plant(
            "google oauth",
            f"GOCSPX-{rand(28)}",
            '{"client_id": "1234.apps.googleusercontent.com", "client_secret": "{}"}',
            "tool-output",
        ),
        _plant("pem", _pem("RSA PRIVATE KEY"), "$ cat id_rsa\n{}\n", "tool-output"),
        _plant(
            "service account",
            _pem("PRIVATE KEY").replace("\n", "\\n"),
            '{\n  "type": "service_account",\n  "private_key": "{}\\n",\n  "client_email": "x"\n}',
            "tool-output",
        ),
        _plant(
            "jwt",
            f"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI{rand(30)}.{rand(43)}",
            "< set-cookie: session={}; HttpOnly",
            "tool-output",
        ),
        _plant(
            "huggingface",
            f"hf_{rand(34, string.ascii_letters)}",
            "HF_TOKEN={} python train.py",
            "tool-args",
        ),
        _plant("npm", f"npm_{rand(36)}", "//registry.npmjs.org/:_authToken={}", "tool-output"),
        _plant("pypi", f"pypi-AgEIcHlwaS5vcmc{rand(120)}", "[pypi]\npassword = {}", "tool-output"),
        _plant("vault", f"hvs.{rand(95)}", "export VAULT_TOKEN={}", "tool-args"),
        _plant("twilio", f"SK{rand(32, HEX)}", "Twilio API key {} for SMS", "assistant"),
        # Kinds the issue found unknown.
        _plant(
            "sendgrid", f"SG.{rand(22)}.{rand(43)}", "SENDGRID_API_KEY={} node send.js", "tool-args"
        ),
        _plant(
            "telegram",
            f"{rand(10, string.digits)}:AA{rand(33)}",
            "https://api.telegram.org/bot{}/getUpdates",
            "path",
        ),
        _plant(
            "telegram",
            f"{rand(9, string.digits)}:AA{rand(33)}",
            "my bot token is {}",
            "user",
        ),
        _plant("groq", f"gsk_{rand(52)}", "Use {} for the Groq client.", "assistant"),
        _plant("xai", f"xai-{rand(80)}", "xAI needs {} here", "thinking"),
        _plant("shopify", f"shpat_{rand(32, HEX)}", "X-Shopify-Access-Token: {}", "tool-output"),
        _plant("digitalocean", f"dop_v1_{rand(64, HEX)}", "doctl auth init -t {}", "tool-args"),
        _plant(
            "docker",
            f"dckr_pat_{rand(27)}",
            "echo {} | docker login -u ana --password-stdin",
            "tool-args",
        ),
        _plant("linear", f"lin_api_{rand(40)}", "linear {}", "label"),
        _plant("notion", f"ntn_{rand(11, string.digits)}{rand(35)}", "notion sync {}", "name"),
        _plant("notion legacy", f"secret_{rand(43)}", "NOTION_KEY={}", "tool-output"),
        _plant(
            "age",
            "AGE-SECRET-KEY-1" + rand(58, BECH32),
            "# created: 2025-01-01T00:00:00Z\n# public key: age1{}\n{}".replace(
                "age1{}", "age1" + rand(58, BECH32.lower())
            ),
            "tool-output",
        ),
        _plant("curl -u", pw(), "curl -u admin:{} https://ci.internal/api/json", "tool-args"),
        _plant(
            "basic auth",
            base64.b64encode(f"deploy:{pw()}".encode()).decode(),
            "> GET /api HTTP/1.1\n> Authorization: Basic {}\n> Accept: */*",
            "tool-output",
        ),
        _plant(
            "mysql -p", pw().replace("!", "x"), "mysql -u root -p{} app < dump.sql", "tool-args"
        ),
        # Passwords in configuration text and prose.
        _plant(
            "json password",
            pw(),
            '{"host": "db.internal", "user": "admin", "password": "{}"}',
            "tool-output",
        ),
        _plant(
            "yaml password",
            pw(),
            "database:\n  host: db.internal\n  user: app\n  password: {}\n  pool: 5",
            "tool-output",
        ),
        _plant(
            "json db_password",
            pw(),
            '{\n  "db_host": "localhost",\n  "db_password": "{}",\n  "debug": false\n}',
            "tool-output",
        ),
        _plant("redis", rand(16), "redis-cli -u redis://:{}@cache.internal:6379 ping", "tool-args"),
        _plant("my password", pw(), "my password is {} if you need to log in", "user"),
        _plant(
            "postgres url",
            pw(),
            "DATABASE_URL=postgresql://app:{}@db.internal:5432/app",
            "tool-output",
        ),
        _plant(
            "mongodb", rand(20), "mongodb+srv://ana:{}@cluster0.ab1cd.mongodb.net/", "assistant"
        ),
        _plant("env password", pw(), "PORT=3000\nDB_PASSWORD={}\nDEBUG=false", "tool-output"),
        _plant(
            "compose password",
            pw(),
            "    environment:\n      - POSTGRES_USER=app\n      - POSTGRES_PASSWORD={}\n",
            "tool-output",
        ),
        _plant(
            "inline env",
            pw(),
            "PGPASSWORD='{}' psql -h db.internal -U app -c 'select 1'",
            "tool-args",
        ),
        _plant("docker -e", pw(), "docker run -e MYSQL_ROOT_PASSWORD={} -d mysql:8", "tool-args"),
        _plant(
            "python kwarg",
            pw(),
            'conn = psycopg2.connect(host="db", user="app", password="{}")',
            "tool-output",
        ),
        _plant(
            "netrc",
            uuid4(),
            "machine api.heroku.com\n  login ana@example.com\n  password {}",
            "tool-output",
        ),
        _plant("heroku env", uuid4(), "HEROKU_API_KEY={}", "tool-output"),
        _plant("password prose", pw(), "The admin password: {}", "assistant"),
        _plant("password thinking", pw(), 'They set password="{}" in settings.py.', "thinking"),
        # Random tokens named by their context.
        _plant(
            "bearer",
            rand(40),
            'curl -H "Authorization: Bearer {}" https://api.internal',
            "tool-args",
        ),
        _plant("api_key json", rand(32, HEX), '{"api_key": "{}", "region": "eu"}', "tool-output"),
        _plant(
            "azure",
            rand(86, BASE64) + "==",
            "DefaultEndpointsProtocol=https;AccountName=store;AccountKey={};EndpointSuffix=core.windows.net",
            "tool-output",
        ),
        _plant("token prose", rand(32), "use the token {} for the staging API", "user"),
        _plant("secret label", rand(30), "secret: {}", "label"),
        _plant("client secret", rand(40), "CLIENT_SECRET={}", "name"),
        _plant(
            "url token", rand(32), "https://api.example.com/v1/items?access_token={}&page=2", "path"
        ),
        _plant("session cookie", rand(48), "Cookie: sessionid={}; csrftoken=abc", "tool-output"),
        # Kinds that wrap, are encoded, or sit in the header.
        _wrapped(f"sk-proj-{rand(74)}T3BlbkFJ{rand(74)}", "OPENAI_API_KEY="),
        _wrapped(f"github_pat_{rand(22)}_{rand(59)}", "GH_TOKEN="),
        _base64_env(),
        _plant("cwd", f"glpat-{rand(20)}", "/home/ana/work/{}", "cwd"),
    ]


def _harmless() -> list[tuple[str, str]]:
    """(place, line): text an export must leave as it is."""
    sha = rand(40, HEX)
    lines = [
        # The false positives the issue lists.
        ("tool-output", f"key: {sha}"),
        ("tool-output", f"token: {uuid4()}"),
        ("tool-args", f"curl -H 'Idempotency-Key: {uuid4()}' https://api.stripe.com/v1/charges"),
        ("tool-output", f"Cache restored from cache key: node-modules-{rand(64, HEX)}"),
        ("assistant", "AWS's documentation uses AKIAIOSFODNN7EXAMPLE as its access key id."),
        ("tool-output", "KeyError: 'AKIAI44QH8DHBEXAMPLE'"),
        ("user", "connect to postgres://user:password@localhost:5432/dev"),
        # Identifiers, digests, hashes.
        ("tool-output", f"commit {sha}\nAuthor: Ana <ana@example.com>"),
        ("tool-output", f"Digest: sha256:{rand(64, HEX)}"),
        ("tool-output", f"session {uuid4()} entry {rand(8, HEX)} parent {rand(8, HEX)}"),
        ("tool-output", f"X-Request-Id: {uuid4()}"),
        ("tool-output", f'ETag: "{rand(32, HEX)}"'),
        ("tool-output", f'"integrity": "sha512-{rand(86, BASE64)}=="'),
        ("tool-output", f"key: linux-pip-{rand(64, HEX)}"),
        ("tool-output", f"cache-key: {rand(40, HEX)}"),
        ("tool-output", f"Idempotency-Key: {uuid4()}"),
        ("assistant", f"The request id was req_{rand(14)}; the message msg_01{rand(22)}."),
        ("tool-output", f'{{"id": "chatcmpl-{rand(29)}", "object": "chat.completion"}}'),
        ("tool-output", f"toolu_01{rand(22)} call_{rand(24)}"),
        ("tool-output", f"/home/ana/.cache/pip/wheels/7a/3f/{rand(56, HEX)}"),
        ("path", f"/home/ana/src/app/tokenizer/{rand(12, HEX)}.py"),
        ("path", "/home/ana/src/app/secrets/detect.py"),
        ("tool-args", f"git checkout -b feature/token-refresh-{rand(7, HEX)}"),
        ("tool-output", f"account_sid: AC{rand(32, HEX)}"),
        ("tool-output", f"publishable key pk_test_{rand(24)}"),
        ("tool-output", f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rand(43, BASE64)} ana@laptop"),
        ("tool-output", "age1" + rand(58, BECH32.lower())),
        (
            "tool-output",
            "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
        ),
        ("tool-args", "echo aGVsbG8gd29ybGQK | base64 -d"),
        ("tool-output", base64.b64encode(b"PORT=3000\nDEBUG=true\nNODE_ENV=production\n").decode()),
        # Names of secrets without their values.
        ("tool-output", 'secret_key = os.environ["SECRET_KEY"]'),
        ("tool-output", 'SECRET_KEY = env("DJANGO_SECRET_KEY")'),
        ("tool-output", "client = OpenAI(api_key=settings.OPENAI_API_KEY)"),
        ("tool-output", 'token = request.headers.get("Authorization")'),
        ("tool-output", "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}"),
        ("tool-output", "      password: ${DB_PASSWORD}"),
        ("tool-args", 'curl -u "$USER:$API_TOKEN" https://ci.internal/api/json'),
        ("tool-args", "mysql -u root -p app"),
        ("tool-args", "mysql -u root -p$MYSQL_PASSWORD app"),
        ("tool-output", "Authorization: Bearer $TOKEN"),
        ("user", "export OPENAI_API_KEY=sk-...\nexport GROQ_API_KEY=<your key>"),
        ("tool-output", "API_TOKEN=xxxxxxxx\nSECRET_KEY=changeme"),
        ("tool-output", "password = getpass.getpass()"),
        ("tool-output", "def login(username: str, password: str) -> bool:"),
        ("tool-output", "password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt())"),
        ("tool-output", "passwd:         files systemd"),
        ("tool-output", "Enter password:"),
        ("tool-args", "docker login -u ana --password-stdin < ~/.docker-token"),
        ("tool-output", "KEY_PATH=/etc/ssl/private/server.key"),
        ("tool-output", "PASSWORD_MIN_LENGTH=12"),
        ("tool-output", "AUTH_URL=https://auth.example.com/oauth/authorize"),
        ("tool-output", "token_type: Bearer\nexpires_in: 3600"),
        ("tool-output", '"secret": false, "maxTokens": 4096'),
        # Prose.
        ("user", "the password is required and must be at least 12 characters"),
        ("assistant", "Your token has been refreshed; it expires in 3600 seconds."),
        ("assistant", "Used 12,345 input tokens and 678 output tokens; keyboard layout us."),
        ("thinking", "The secret key should come from the environment, not from the code."),
        ("thinking", "Check whether the password reset link expires."),
        ("assistant", "Sort with `sorted(items, key=lambda item: item.name)`."),
        ("assistant", "Groq keys start with gsk_ and Docker tokens with dckr_pat_."),
        ("user", "I reset my password yesterday"),
        ("name", "fix token refresh"),
        ("label", "before the password change"),
        (
            "tool-output",
            "npm ERR! code E401\nnpm ERR! Unable to authenticate, your authentication token seems to be invalid.",
        ),
        ("tool-output", "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf"),
        ("tool-output", "sk-learn is not a key, nor is sk-this-is-just-hyphenated-prose"),
    ]
    return lines


SECRETS: list[Planted] = _secrets()
HARMLESS: list[tuple[str, str]] = _harmless()
