"""A fake of Anthropic's sign-in service, so Claude Code's own ``claude auth login`` (which
claude-agent-acp offers as its terminal sign-in methods) runs for real, fully offline.

The released CLI signs in against fixed https addresses (``platform.claude.com``'s OAuth
endpoints, ``api.anthropic.com``'s profile, roles and API-key endpoints) that no variable moves.
So this fake stands in for the network the way a corporate proxy does, by means Claude Code
supports for that: ``HTTPS_PROXY`` names this server, which accepts ``CONNECT`` for any host and
speaks TLS with a certificate for those hosts signed by a throwaway CA that ``NODE_EXTRA_CA_CERTS``
names. Nothing leaves 127.0.0.1; every request that reaches it is kept in ``requests``.

The user's part is played by ``BROWSER``, a script the CLI opens with the authorize URL: it
follows it (the fake answers with a redirect to the CLI's localhost callback, carrying a fresh
code) as a browser would. The fake then plays the service: the code is exchanged for tokens
only with the PKCE verifier of its challenge; "Anthropic Console" tokens lack
``user:inference``, so the CLI creates an API key with them (``raw_key``, which it keeps as its
managed key); "Claude Subscription" tokens carry it, and the CLI keeps the tokens.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import hashlib
import json
import secrets
import ssl
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HOSTS = ("platform.claude.com", "api.anthropic.com", "claude.ai", "claude.com")
API_KEY = "sk-ant-api03-fake-console-login-key"
ACCESS_TOKEN = "sk-ant-oat01-fake-subscription-token"
EMAIL = "alice@example.com"
ORGANIZATION = "Fake Org"

CONSOLE_SCOPES = "org:create_api_key user:profile"
"""What the service grants an Anthropic Console login: no inference, so the CLI makes a key."""
SUBSCRIPTION_SCOPES = "user:profile user:inference user:sessions:claude_code"


@dataclass(frozen=True)
class Seen:
    host: str
    method: str
    path: str
    body: dict[str, Any]
    headers: dict[str, str]


@dataclass
class FakeAnthropicLogin:
    home: Path
    """Where the CA and the browser script are written."""
    requests: list[Seen] = field(default_factory=list)
    issued: dict[str, tuple[str, str]] = field(default_factory=dict)
    """code -> (PKCE challenge, granted scopes)."""
    tokens: set[str] = field(default_factory=set)
    keys_made: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    port: int = 0

    @property
    def ca(self) -> Path:
        return self.home / "fake-ca.pem"

    def env(self) -> dict[str, str]:
        """The network as the user's machine sees it: the CLI, the agent and the browser."""
        proxy = f"http://127.0.0.1:{self.port}"
        return {
            "HTTPS_PROXY": proxy,
            "https_proxy": proxy,
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "NODE_EXTRA_CA_CERTS": str(self.ca),
            "BROWSER": str(self.home / "fake-browser"),
        }

    def hosts_asked(self) -> set[str]:
        return {r.host for r in self.requests}

    # -- the service --

    def answer(self, seen: Seen) -> tuple[int, dict[str, str], Any]:
        """(status, extra headers, JSON body) for one request."""
        self.requests.append(seen)
        path = urllib.parse.urlsplit(seen.path)
        query = urllib.parse.parse_qs(path.query)
        route = (seen.method, path.path)
        bearer = seen.headers.get("authorization", "").removeprefix("Bearer ")
        if route in (("GET", "/oauth/authorize"), ("GET", "/cai/oauth/authorize")):
            # The Console's page, or claude.com's for a Claude subscription.
            return self._authorize(query, subscription=seen.host == "claude.com")
        if route == ("POST", "/v1/oauth/token"):
            return self._token(seen.body)
        if path.path.startswith("/api/oauth/") and bearer not in self.tokens:
            return 401, {}, {"error": {"type": "authentication_error", "message": "bad token"}}
        if route == ("GET", "/api/oauth/profile"):
            account = {"uuid": "11111111-1111-4111-8111-111111111111", "email": EMAIL}
            organization = {"uuid": "22222222-2222-4222-8222-222222222222", "name": ORGANIZATION}
            if bearer == ACCESS_TOKEN:  # the subscription's plan
                organization["organization_type"] = "claude_max"
            return 200, {}, {"account": account, "organization": organization}
        if route == ("GET", "/api/oauth/claude_cli/roles"):
            return 200, {}, {"organization_role": "admin", "organization_name": ORGANIZATION}
        if route == ("POST", "/api/oauth/claude_cli/create_api_key"):
            self.keys_made.append(API_KEY)
            return 200, {}, {"raw_key": API_KEY}
        if path.path.startswith("/oauth/code/") or path.path == "/buy_credits":
            return 200, {}, {"page": "You are signed in; you may close this window."}
        return 404, {}, {"error": {"type": "not_found_error", "message": "not faked"}}

    def _authorize(
        self, query: dict[str, list[str]], *, subscription: bool
    ) -> tuple[int, dict[str, str], Any]:
        redirect = (query.get("redirect_uri") or [""])[0]
        challenge = (query.get("code_challenge") or [""])[0]
        if not redirect.startswith("http://localhost:") or not challenge:
            self.errors.append(f"authorize without a local callback or PKCE: {query}")
            return 400, {}, {"error": "invalid_request"}
        granted = SUBSCRIPTION_SCOPES if subscription else CONSOLE_SCOPES
        code = secrets.token_urlsafe(16)
        self.issued[code] = (challenge, granted)
        state = (query.get("state") or [""])[0]
        target = f"{redirect}?{urllib.parse.urlencode({'code': code, 'state': state})}"
        return 302, {"Location": target}, {}

    def _token(self, body: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
        code = str(body.get("code", ""))
        issued = self.issued.pop(code, None)
        verifier = str(body.get("code_verifier", ""))
        digest = hashlib.sha256(verifier.encode()).digest()
        challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        if issued is None or issued[0] != challenge:
            self.errors.append(f"token exchange with an unknown code or a wrong verifier: {body}")
            return 401, {}, {"error": "invalid_grant"}
        token = ACCESS_TOKEN if "user:inference" in issued[1] else "fake-console-oauth-token"
        self.tokens.add(token)
        return (
            200,
            {},
            {
                "access_token": token,
                "refresh_token": "fake-refresh-token",
                "expires_in": 3600,
                "token_type": "Bearer",
                "scope": issued[1],
                "account": {"uuid": "11111111-1111-4111-8111-111111111111", "email_address": EMAIL},
                "organization": {
                    "uuid": "22222222-2222-4222-8222-222222222222",
                    "name": ORGANIZATION,
                },
            },
        )

    # -- set-up --

    def write_files(self) -> ssl.SSLContext:
        """The CA (for ``NODE_EXTRA_CA_CERTS``), the browser script; the server's TLS context."""
        self.home.mkdir(parents=True, exist_ok=True)
        now = datetime.datetime.now(datetime.UTC)
        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "acp-editor tests fake CA")])
        ca = (
            _valid(x509.CertificateBuilder(), now)
            .subject_name(ca_name)
            .issuer_name(ca_name)
            .public_key(ca_key.public_key())
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(_ca_usage(), critical=True)
            .add_extension(
                x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False
            )
            .sign(ca_key, hashes.SHA256())
        )
        key = ec.generate_private_key(ec.SECP256R1())
        leaf = (
            _valid(x509.CertificateBuilder(), now)
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, HOSTS[0])]))
            .issuer_name(ca_name)
            .public_key(key.public_key())
            .add_extension(
                x509.SubjectAlternativeName([x509.DNSName(h) for h in HOSTS]), critical=False
            )
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                critical=False,
            )
            .sign(ca_key, hashes.SHA256())
        )
        pem = serialization.Encoding.PEM
        self.ca.write_bytes(ca.public_bytes(pem))
        chain, secret = self.home / "fake-leaf.pem", self.home / "fake-leaf.key"
        chain.write_bytes(leaf.public_bytes(pem) + ca.public_bytes(pem))
        secret.write_bytes(
            key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        )
        browser = self.home / "fake-browser"
        browser.write_text(BROWSER.format(python=sys.executable, ca=str(self.ca)), encoding="utf-8")
        browser.chmod(0o755)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(chain, secret)
        return context


def _valid(builder: x509.CertificateBuilder, now: datetime.datetime) -> x509.CertificateBuilder:
    return (
        builder.serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
    )


def _ca_usage() -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=True,
        key_cert_sign=True,
        crl_sign=True,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        encipher_only=False,
        decipher_only=False,
    )


BROWSER = """#!{python}
# The user's browser, opened by `claude auth login` with the authorize URL: it follows the
# service's redirects (through the same proxy, trusting the same CA) to the CLI's callback.
import ssl, sys, urllib.request
context = ssl.create_default_context(cafile={ca!r})
opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context))
with opener.open(sys.argv[-1], timeout=20) as page:
    page.read()
"""


def _handler(fake: FakeAnthropicLogin, tls: ssl.SSLContext) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        host = ""

        def log_message(self, format: str, *args: Any) -> None:
            return None

        def do_CONNECT(self) -> None:
            self.send_response(HTTPStatus.OK, "Connection established")
            self.end_headers()
            self.close_connection = True
            try:
                inner = tls.wrap_socket(self.connection, server_side=True)
            except ssl.SSLError as exc:  # a client that does not trust the fake CA
                fake.errors.append(f"TLS with a client for {self.path} failed: {exc}")
                return
            except OSError:  # a client gone (a process that exits while it connects)
                return
            host = self.path.rsplit(":", 1)[0]
            type("Tunnel", (Handler,), {"host": host})(inner, self.client_address, self.server)

        def _any(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else {}
            except ValueError:
                body = {"raw": raw.decode("utf-8", "replace")}
            headers = {k.lower(): v for k, v in self.headers.items()}
            seen = Seen(self.host or "(plain)", self.command, self.path, body, headers)
            status, extra, answer = fake.answer(seen)
            data = json.dumps(answer).encode()
            self.send_response(status)
            for name, value in extra.items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _any

    return Handler


@contextlib.contextmanager
def running_fake_login(home: Path) -> Iterator[FakeAnthropicLogin]:
    fake = FakeAnthropicLogin(home)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake, fake.write_files()))
    server.daemon_threads = True
    fake.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
