"""HTTPS on the LAN, for a table without a public address: a certificate authority made once on
this machine, and a server certificate it signs for the machine's addresses.

A phone that trusts the authority (its ``ca.crt`` installed once, see docs/settings.md) opens
``https://<LAN address>:8000/`` as a secure context: the screen lock, the offline copy and
installing the app all work there. The authority's key never leaves ``folder``; the server
certificate is made again when the addresses change or it has less than 30 days left.

An authority installed on a phone is trusted for every connection the phone makes, so it is
made fit for that and nothing more: it may sign only server certificates (key usage
``keyCertSign``, path length 0) for the private address ranges, ``.local``, this machine's
names and its own addresses (name constraints, which phones enforce), for at most 825 days. Its SHA-256
fingerprint is printed by the start command and shown on ``/trust/``, so that a phone can
compare the file it downloaded with the one this machine made before installing it. An
authority without those limits (made by an older version) is made anew; the key files are
made private (0600) on every start, whatever mode they had; a server certificate is kept
only if the current authority signed it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import os
import ssl
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_DAYS = 825  # the longest validity Apple's phones accept for a certificate they are asked to trust
SERVER_DAYS = 397  # what phones accept for a server certificate
RENEW_BEFORE = dt.timedelta(days=30)
# What the authority may vouch for: the private address ranges (RFC 1918, loopback, link-local,
# IPv6 unique-local and link-local) and names ending in .local, besides this machine's own names.
_PRIVATE_V4 = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16")
PRIVATE_NETWORKS = tuple(ipaddress.ip_network(n) for n in (*_PRIVATE_V4, "fc00::/7", "fe80::/10", "::1/128"))


@dataclass(frozen=True)
class Files:
    ca: Path  # the authority's certificate: the one file a phone installs
    cert: Path
    key: Path

    @classmethod
    def kept_in(cls, folder: Path) -> Files:
        return cls(folder / "ca.crt", folder / "server.crt", folder / "server.key")

    def server_context(self) -> ssl.SSLContext:
        """What the server speaks TLS with (``oneport``): its certificate and key."""
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert, self.key)
        return context


def ensure(folder: Path, hosts: list[str]) -> Files:
    """The authority and a server certificate valid now for every one of ``hosts`` (names or IPs)."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    folder.chmod(0o700)
    files = Files.kept_in(folder)
    ca_key_path = folder / "ca.key"
    for secret in (ca_key_path, files.key):
        if secret.exists():
            secret.chmod(0o600)  # a key left readable by an earlier start or by hand
    machine = [h for h in hosts if not _private_ip(h) and not h.endswith(".local")]
    if not _fit_authority(files.ca, ca_key_path, machine):
        _write_key(ca_key_path, ca_key := ec.generate_private_key(ec.SECP256R1()))
        files.ca.write_bytes(_authority(ca_key, machine).public_bytes(serialization.Encoding.PEM))
    ca = x509.load_pem_x509_certificate(files.ca.read_bytes())
    if not _current(files.cert, hosts, ca):
        loaded = serialization.load_pem_private_key(ca_key_path.read_bytes(), password=None)
        assert isinstance(loaded, ec.EllipticCurvePrivateKey)
        _write_key(files.key, key := ec.generate_private_key(ec.SECP256R1()))
        signable = [h for h in hosts if _permitted(ca, h)]
        files.cert.write_bytes(_server(ca, loaded, key, signable).public_bytes(serialization.Encoding.PEM))
    return files


def fingerprint(cert: Path) -> str:
    """The certificate's SHA-256 fingerprint as phones show it: 32 hex pairs joined by colons."""
    digest = hashlib.sha256(x509.load_pem_x509_certificate(cert.read_bytes()).public_bytes(serialization.Encoding.DER))
    return ":".join(f"{b:02X}" for b in digest.digest())


def names(cert: Path) -> set[str]:
    """The host names and addresses a certificate is good for."""
    found = x509.load_pem_x509_certificate(cert.read_bytes())
    alt = found.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return {*alt.get_values_for_type(x509.DNSName), *(str(ip) for ip in alt.get_values_for_type(x509.IPAddress))}


def _private_ip(host: str) -> bool:
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(ip in net for net in PRIVATE_NETWORKS if net.version == ip.version)


def _permitted(ca: x509.Certificate, host: str) -> bool:
    """Whether the authority's name constraints let it sign for ``host``."""
    try:
        constraints = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        return False
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        dns = [n.value.lower().lstrip(".") for n in constraints.permitted_subtrees or [] if isinstance(n, x509.DNSName)]
        lowered = host.lower()
        return any(lowered == d or lowered.endswith("." + d) for d in dns)
    nets = [n.value for n in constraints.permitted_subtrees or [] if isinstance(n, x509.IPAddress)]
    return any(ip in net for net in nets if isinstance(net, ipaddress.IPv4Network | ipaddress.IPv6Network))


def _fit_authority(ca_path: Path, key_path: Path, machine: list[str]) -> bool:
    """An authority to keep: present with its key, limited (name constraints, key usage, at most
    CA_DAYS), not near its end, and covering this machine's names."""
    if not (ca_path.exists() and key_path.exists()):
        return False
    try:
        ca = x509.load_pem_x509_certificate(ca_path.read_bytes())
        usage = ca.extensions.get_extension_for_class(x509.KeyUsage).value
        ca.extensions.get_extension_for_class(x509.NameConstraints)
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    except (ValueError, x509.ExtensionNotFound):
        return False
    lifetime = ca.not_valid_after_utc - ca.not_valid_before_utc
    return (
        key.public_key() == ca.public_key()
        and usage.key_cert_sign
        and not usage.digital_signature
        and lifetime <= dt.timedelta(days=CA_DAYS, minutes=5)
        and ca.not_valid_after_utc - dt.datetime.now(dt.UTC) > RENEW_BEFORE
        and all(_permitted(ca, h) for h in machine)
    )


def _current(cert: Path, hosts: list[str], ca: x509.Certificate) -> bool:
    """A server certificate to keep: signed by the current authority, fresh, naming every host it may."""
    if not cert.exists():
        return False
    found = x509.load_pem_x509_certificate(cert.read_bytes())
    try:
        found.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature):
        return False
    fresh = found.not_valid_after_utc - dt.datetime.now(dt.UTC) > RENEW_BEFORE
    return fresh and {h for h in hosts if _permitted(ca, h)} <= names(cert)


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    """Write a private key readable by this user only, whatever mode an old file at ``path`` had."""
    pem, pkcs8 = serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8
    data = key.private_bytes(pem, pkcs8, serialization.NoEncryption())
    path.unlink(missing_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)


def _name(common: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Rummy referee"),
            x509.NameAttribute(NameOID.COMMON_NAME, common),
        ]
    )


def _authority(key: ec.EllipticCurvePrivateKey, machine: list[str]) -> x509.Certificate:
    now = dt.datetime.now(dt.UTC)
    name = _name("Rummy referee table CA")
    names, own = ["local"], []
    for host in machine:  # this machine's names, and its own addresses outside the private ranges
        try:
            own.append(ipaddress.ip_network(host))  # one address: /32 or /128
        except ValueError:
            names.append(host.lower())
    permitted: list[x509.GeneralName] = [x509.DNSName(d) for d in dict.fromkeys(names)]
    permitted += [x509.IPAddress(net) for net in (*PRIVATE_NETWORKS, *own)]
    return (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )  # key_cert_sign, crl_sign
        .add_extension(x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )


def _server(
    ca: x509.Certificate, ca_key: ec.EllipticCurvePrivateKey, key: ec.EllipticCurvePrivateKey, hosts: list[str]
) -> x509.Certificate:
    now = dt.datetime.now(dt.UTC)
    alt: list[x509.GeneralName] = []
    for host in dict.fromkeys(hosts):
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            alt.append(x509.DNSName(host))
    return (
        x509.CertificateBuilder()
        .subject_name(_name(hosts[0]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=SERVER_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
