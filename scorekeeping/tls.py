"""HTTPS on the LAN, for a table without a public address: a certificate authority made once on
this machine, and a server certificate it signs for the machine's addresses.

A phone that trusts the authority (its ``ca.crt`` installed once, see the README) opens
``https://<LAN address>:8000/`` as a secure context: the screen lock, the offline copy and
installing the app all work there. The authority's key never leaves ``folder``; the server
certificate is made again when the addresses change or it has less than 30 days left.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_DAYS = 3650
SERVER_DAYS = 397  # what phones accept for a server certificate
RENEW_BEFORE = dt.timedelta(days=30)


@dataclass(frozen=True)
class Files:
    ca: Path  # the authority's certificate: the one file a phone installs
    cert: Path
    key: Path


def ensure(folder: Path, hosts: list[str]) -> Files:
    """The authority and a server certificate valid now for every one of ``hosts`` (names or IPs)."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    files = Files(folder / "ca.crt", folder / "server.crt", folder / "server.key")
    ca_key_path = folder / "ca.key"
    if not (files.ca.exists() and ca_key_path.exists()):
        _write_key(ca_key_path, ca_key := ec.generate_private_key(ec.SECP256R1()))
        files.ca.write_bytes(_authority(ca_key).public_bytes(serialization.Encoding.PEM))
    if not _current(files.cert, hosts):
        loaded = serialization.load_pem_private_key(ca_key_path.read_bytes(), password=None)
        assert isinstance(loaded, ec.EllipticCurvePrivateKey)
        ca_key = loaded
        ca = x509.load_pem_x509_certificate(files.ca.read_bytes())
        _write_key(files.key, key := ec.generate_private_key(ec.SECP256R1()))
        files.cert.write_bytes(_server(ca, ca_key, key, hosts).public_bytes(serialization.Encoding.PEM))
    return files


def names(cert: Path) -> set[str]:
    """The host names and addresses a certificate is good for."""
    found = x509.load_pem_x509_certificate(cert.read_bytes())
    alt = found.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return {*alt.get_values_for_type(x509.DNSName), *(str(ip) for ip in alt.get_values_for_type(x509.IPAddress))}


def _current(cert: Path, hosts: list[str]) -> bool:
    if not cert.exists():
        return False
    found = x509.load_pem_x509_certificate(cert.read_bytes())
    fresh = found.not_valid_after_utc - dt.datetime.now(dt.UTC) > RENEW_BEFORE
    return fresh and set(hosts) <= names(cert)


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    path.touch(mode=0o600)
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )


def _name(common: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Rummy referee"),
            x509.NameAttribute(NameOID.COMMON_NAME, common),
        ]
    )


def _authority(key: ec.EllipticCurvePrivateKey) -> x509.Certificate:
    now = dt.datetime.now(dt.UTC)
    name = _name("Rummy referee table CA")
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
