#!/usr/bin/env python3
"""Turns Queuegate's published admission keys (a JWK set: /.well-known/jwks.json) into the PEM public keys HAProxy's
jwt_verify reads.

    jwks-to-pem.py <jwks URL or file> <directory>

Writes <directory>/queuegate-key-1.pem (the first key: the one that signs now) and queuegate-key-2.pem (the second
key during a rotation, else the first again), which the HAProxy configuration verifies with, and prints each key's
kid. Only EC P-256 keys (ES256) are taken. Python's standard library only.

A rotation (queuegate.token.signing-keys): publish the new key first, with the old one second, run this script and
reload HAProxy (both files are then accepted); once the old key's admissions have expired, drop it, run it again and
reload. HAProxy reads the files at start only.
"""
import base64
import json
import pathlib
import sys
import urllib.request

# DER of a SubjectPublicKeyInfo for an uncompressed P-256 point: SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 },
# BIT STRING { 04 || X || Y } }; only the point varies.
P256_PREFIX = bytes.fromhex('3059301306072a8648ce3d020106082a8648ce3d030107034200')


def b64url(text):
    return base64.urlsafe_b64decode(text + '=' * (-len(text) % 4))


def pem(jwk):
    x, y = b64url(jwk['x']), b64url(jwk['y'])
    if len(x) != 32 or len(y) != 32:
        raise ValueError('a P-256 coordinate is 32 bytes')
    der = P256_PREFIX + b'\x04' + x + y
    body = base64.encodebytes(der).decode('ascii').replace('\n', '')
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return '-----BEGIN PUBLIC KEY-----\n' + '\n'.join(lines) + '\n-----END PUBLIC KEY-----\n'


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    source, directory = argv[1], pathlib.Path(argv[2])
    if source.startswith('http://') or source.startswith('https://'):
        with urllib.request.urlopen(source, timeout=10) as answer:
            keys = json.load(answer)['keys']
    else:
        keys = json.loads(pathlib.Path(source).read_text())['keys']
    keys = [k for k in keys if k.get('kty') == 'EC' and k.get('crv') == 'P-256' and 'd' not in k]
    if not keys:
        sys.stderr.write('no public EC P-256 key in ' + source + '\n')
        return 1
    directory.mkdir(parents=True, exist_ok=True)
    for index, key in enumerate([keys[0], keys[1] if len(keys) > 1 else keys[0]], start=1):
        target = directory / ('queuegate-key-%d.pem' % index)
        target.write_text(pem(key))
        print('%s: kid %s' % (target, key.get('kid')))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
