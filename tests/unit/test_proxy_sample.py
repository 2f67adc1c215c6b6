"""The sample reverse proxy (deploy/nginx/spades.conf, docs/deploy.md; issue 18, point 6):
TLS with an HTTP redirect, WebSocket upgrades on /ws/, the forwarded headers the web
reads on every proxied location, and an access log that never holds a query string
(the browser's socket carries its API token as ``?token=``).

Read as text, then ``nginx -t`` must accept the sample (with a throwaway certificate and
its state in a temporary folder; nothing listens). bin/test provides the binary; where
there is none that one test says so as a skip, and the checks above still ran."""

from __future__ import annotations

import datetime
import os
import re
import shutil
import subprocess
from ipaddress import ip_address
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "deploy" / "nginx" / "spades.conf"
# nginx variables that hold the query string, or a whole request line or URL with it.
QUERY_VARIABLES = re.compile(
    r"\$(request|request_uri|args|query_string|is_args|arg_\w+|http_referer)\b"
)


def text() -> str:
    return "\n".join(line.split("#", 1)[0] for line in SAMPLE.read_text().splitlines())


def directives(body: str, name: str) -> list[str]:
    """The arguments of every ``name ...;`` directive in ``body``."""
    return [" ".join(m.split()) for m in re.findall(rf"(?m)^\s*{name}\s+([^;]*);", body)]


def blocks(body: str, head: str) -> list[tuple[str, str]]:
    """``head ARG { ... }`` blocks (braces balanced) as (argument, body)."""
    found = []
    for match in re.finditer(rf"(?m)^\s*{head}\b([^{{;}}]*)\{{", body):
        depth, at = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(body[at], 0)
            at += 1
        found.append((match.group(1).strip(), body[match.end() : at - 1]))
    return found


def test_the_access_log_format_drops_the_query_string() -> None:
    body = text()
    [log_format] = [f for f in directives(body, "log_format") if f.startswith("spades_no_query")]
    assert "$uri" in log_format and "$request_method" in log_format
    assert not QUERY_VARIABLES.search(log_format), log_format
    logs = directives(body, "access_log")
    assert logs and all(log.endswith(" spades_no_query") or log == "off" for log in logs), logs


def test_every_proxied_location_forwards_the_client_and_the_scheme() -> None:
    proxied = {
        path: location
        for _, server in blocks(text(), "server")
        for path, location in blocks(server, "location")
        if directives(location, "proxy_pass")
    }
    assert set(proxied) == {"/ws/", "/"}
    for path, location in proxied.items():
        headers = {
            h.split()[0]: h.split(None, 1)[1] for h in directives(location, "proxy_set_header")
        }
        # A location with any proxy_set_header inherits none: each one sets all of them.
        assert headers["X-Forwarded-For"] == "$remote_addr", path
        assert headers["X-Forwarded-Proto"] == "$scheme", path
        assert headers["Host"] == "$host", path
        assert directives(location, "proxy_http_version") == ["1.1"], path
    websocket = proxied["/ws/"]
    headers = {h.split()[0]: h.split(None, 1)[1] for h in directives(websocket, "proxy_set_header")}
    assert headers["Upgrade"] == "$http_upgrade"
    assert headers["Connection"] == "$spades_connection"
    assert "map $http_upgrade $spades_connection" in text()
    # nginx puts the request line, ?token= included, in every error entry about it.
    assert [e.split()[-1] for e in directives(websocket, "error_log")] == ["crit"]
    [timeout] = directives(websocket, "proxy_read_timeout")
    assert timeout in ("1h", "3600", "3600s")


def test_tls_on_443_and_plain_http_only_redirects() -> None:
    servers = [server for _, server in blocks(text(), "server")]
    tls = [s for s in servers if "443 ssl" in " ".join(directives(s, "listen"))]
    plain = [s for s in servers if s not in tls]
    assert len(tls) == 1 and len(plain) == 1, servers
    [protocols] = directives(tls[0], "ssl_protocols")
    assert protocols.split() == ["TLSv1.2", "TLSv1.3"]
    assert directives(tls[0], "ssl_certificate") and directives(tls[0], "ssl_certificate_key")
    root = dict(blocks(plain[0], "location"))["/"]
    assert directives(root, "return") == ["301 https://$host$request_uri"]
    assert not directives(plain[0], "proxy_pass")


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate and key for spades.example.org and 127.0.0.1, valid for a day."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "spades.example.org")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("spades.example.org"), x509.IPAddress(ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def nginx_binary() -> str | None:
    """bin/test unpacks Debian's nginx binary into .run/nginx (spades_ensure_nginx)."""
    return os.environ.get("SPADES_NGINX") or shutil.which("nginx")


def test_nginx_accepts_the_sample(tmp_path: Path) -> None:
    binary = nginx_binary()
    if binary is None:
        pytest.skip("no nginx binary (bin/test unpacks Debian's); the checks above still ran")
    cert, key = self_signed(tmp_path)
    site = SAMPLE.read_text()
    site = site.replace("/etc/letsencrypt/live/spades.example.org/fullchain.pem", str(cert))
    site = site.replace("/etc/letsencrypt/live/spades.example.org/privkey.pem", str(key))
    site = site.replace("/var/log/nginx/", f"{tmp_path}/")
    (tmp_path / "spades.conf").write_text(site)
    # The http block a distribution's nginx.conf has, with its state in tmp_path.
    temp_paths = "".join(
        f"  {kind}_temp_path {tmp_path}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (tmp_path / "nginx.conf").write_text(
        f"error_log {tmp_path}/error.log;\npid {tmp_path}/nginx.pid;\n"
        f"events {{}}\nhttp {{\n{temp_paths}  include {tmp_path}/spades.conf;\n}}\n"
    )
    done = subprocess.run(
        [binary, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
