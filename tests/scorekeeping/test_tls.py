"""The LAN certificate authority (``LAN_HTTPS=1``) is fit to be installed on a phone: it may sign
only server certificates for private addresses, ``.local`` and this machine's names, for at most
825 days; its keys stay private; a server certificate is kept only if it signed it."""

import datetime as dt
import ipaddress
import ssl

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

from scorekeeping.serve import tls

HOSTS = ["192.168.1.20", "tablebox", "tablebox.local", "localhost", "127.0.0.1"]


def _ca(files):
    return x509.load_pem_x509_certificate(files.ca.read_bytes())


def _ca_key(folder):
    return serialization.load_pem_private_key((folder / "ca.key").read_bytes(), password=None)


def test_authority_is_limited_to_signing_private_names_for_825_days(tmp_path):
    files = tls.ensure(tmp_path, HOSTS)
    ca = _ca(files)
    usage = ca.extensions.get_extension_for_class(x509.KeyUsage)
    assert usage.critical and usage.value.key_cert_sign and not usage.value.digital_signature
    assert not usage.value.key_encipherment and not usage.value.content_commitment
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.path_length == 0
    constraints = ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert constraints.critical
    permitted = constraints.value.permitted_subtrees
    dns = {n.value for n in permitted if isinstance(n, x509.DNSName)}
    assert dns == {"local", "tablebox", "localhost"}
    nets = {n.value for n in permitted if isinstance(n, x509.IPAddress)}
    assert ipaddress.ip_network("192.168.0.0/16") in nets and ipaddress.ip_network("10.0.0.0/8") in nets
    assert all(net.is_private for net in nets)
    assert ca.not_valid_after_utc - ca.not_valid_before_utc <= dt.timedelta(days=825, minutes=5)
    assert tls.names(files.cert) == set(HOSTS)


def test_a_certificate_for_a_bank_signed_with_the_key_does_not_verify(tmp_path):
    files = tls.ensure(tmp_path, HOSTS)
    ca, ca_key = _ca(files), _ca_key(tmp_path)
    # What an attacker holding ca.key would make: a certificate for a public name and a public address.
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.UTC)
    forged = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, "bank.example.com")]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("bank.example.com"), x509.IPAddress(ipaddress.ip_address("93.184.216.34"))]
            ),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    from cryptography.x509.verification import PolicyBuilder, Store, VerificationError

    store = Store([ca])
    verifier = PolicyBuilder().store(store).build_server_verifier(x509.DNSName("bank.example.com"))
    with pytest.raises(VerificationError):
        verifier.verify(forged, [])
    # The server certificate the start command made verifies for the machine's own names.
    server = x509.load_pem_x509_certificate(files.cert.read_bytes())
    for name in (x509.DNSName("tablebox.local"), x509.IPAddress(ipaddress.ip_address("192.168.1.20"))):
        PolicyBuilder().store(store).build_server_verifier(name).verify(server, [])


def _forge(files, folder, name):
    ca, ca_key = _ca(files), _ca_key(folder)
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, name)]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    (folder / "forged.crt").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "forged.key").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return folder / "forged.crt", folder / "forged.key"


def _handshake(cert, key, cafile, server_hostname):
    """A TLS handshake over loopback as a phone trusting ``cafile`` would make it; the client's error, if any."""
    import socket
    import threading

    serving = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    serving.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def accept():
        conn, _ = listener.accept()
        try:
            with serving.wrap_socket(conn, server_side=True):
                pass
        except (ssl.SSLError, OSError):
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    try:
        client = ssl.create_default_context(cafile=str(cafile))
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            try:
                with client.wrap_socket(raw, server_hostname=server_hostname):
                    return None
            except ssl.SSLCertVerificationError as exc:
                return exc
    finally:
        thread.join(5)
        listener.close()


def test_openssl_refuses_a_certificate_for_a_public_name_signed_with_the_key(tmp_path):
    files = tls.ensure(tmp_path, HOSTS)
    assert _handshake(files.cert, files.key, files.ca, "tablebox.local") is None
    cert, key = _forge(files, tmp_path, "bank.example.com")
    refused = _handshake(cert, key, files.ca, "bank.example.com")
    assert refused is not None and "permitted subtree violation" in refused.verify_message


def test_key_files_are_made_private_on_every_start(tmp_path):
    files = tls.ensure(tmp_path, HOSTS)
    (tmp_path / "ca.key").chmod(0o644)
    files.key.chmod(0o644)
    tmp_path.chmod(0o755)
    again = tls.ensure(tmp_path, HOSTS)
    assert again.ca.read_bytes() == files.ca.read_bytes()  # the same authority: phones keep trusting it
    assert (tmp_path / "ca.key").stat().st_mode & 0o777 == 0o600
    assert files.key.stat().st_mode & 0o777 == 0o600
    assert tmp_path.stat().st_mode & 0o777 == 0o700


def test_a_server_certificate_from_another_authority_is_replaced(tmp_path):
    other = tmp_path / "other"
    foreign = tls.ensure(other, HOSTS)
    files = tls.ensure(tmp_path / "mine", HOSTS)
    files.cert.write_bytes(foreign.cert.read_bytes())  # fresh and naming every host, but not ours
    again = tls.ensure(tmp_path / "mine", HOSTS)
    server = x509.load_pem_x509_certificate(again.cert.read_bytes())
    server.verify_directly_issued_by(_ca(again))
    assert again.cert.read_bytes() != foreign.cert.read_bytes()


def test_an_unlimited_authority_from_an_older_version_is_made_anew(tmp_path):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, "old")])
    now = dt.datetime.now(dt.UTC)
    old = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + dt.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(key, hashes.SHA256())
    )
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "ca.crt").write_bytes(old.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "ca.key").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    files = tls.ensure(tmp_path, HOSTS)
    ca = _ca(files)
    assert ca.serial_number != 1
    ca.extensions.get_extension_for_class(x509.NameConstraints)


def test_the_machines_own_public_address_is_named_and_no_other(tmp_path):
    # Some networks give their machines addresses outside the private ranges: the machine's own
    # address is vouched for (one address), and no other public one.
    files = tls.ensure(tmp_path, [*HOSTS, "203.0.113.9"])
    assert "203.0.113.9" in tls.names(files.cert)
    constraints = _ca(files).extensions.get_extension_for_class(x509.NameConstraints).value
    nets = {n.value for n in constraints.permitted_subtrees}
    assert ipaddress.ip_network("203.0.113.9/32") in nets and ipaddress.ip_network("203.0.113.0/24") not in nets
    assert not any(isinstance(n, ipaddress.IPv4Network) and ipaddress.ip_address("203.0.113.10") in n for n in nets)


def test_fingerprint_is_the_sha256_of_the_authority_as_phones_show_it(tmp_path):
    import hashlib

    files = tls.ensure(tmp_path, HOSTS)
    der = _ca(files).public_bytes(serialization.Encoding.DER)
    expected = hashlib.sha256(der).hexdigest().upper()
    assert tls.fingerprint(files.ca).replace(":", "") == expected
    assert len(tls.fingerprint(files.ca)) == 32 * 3 - 1
