import { AppError } from '../../core/errors';
import { decodeBase64, encodeBase64 } from '../../core/backup/base64';
import {
  BACKUP_VERSION,
  ENCRYPTED_FORMAT,
  PBKDF2_ITERATIONS,
  PBKDF2_MAX_ITERATIONS,
  type EncryptedEnvelope,
} from '../../core/backup/backup-format';
import { CheckFailure, num, obj, oneOf, str, type Check } from '../../core/backup/checks';

const SALT_BYTES = 16;
/** Longest salt accepted on import (ADR 0161). */
const MAX_SALT_BYTES = 64;
/** 96-bit IVs are what AES-GCM is specified for; a fresh random one per backup. */
const IV_BYTES = 12;

const b64 = str({ min: 1, max: Number.MAX_SAFE_INTEGER });
const shortB64 = str({ min: 1, max: 200 });
const envelopeCheck: Check<EncryptedEnvelope> = obj<EncryptedEnvelope>({
  format: oneOf(ENCRYPTED_FORMAT),
  version: num({ integer: true, min: 1, max: BACKUP_VERSION }),
  kdf: obj<EncryptedEnvelope['kdf']>({
    name: oneOf('PBKDF2'),
    hash: oneOf('SHA-256'),
    iterations: num({ integer: true, min: PBKDF2_ITERATIONS, max: PBKDF2_MAX_ITERATIONS }),
    salt: shortB64,
  }),
  cipher: obj<EncryptedEnvelope['cipher']>({ name: oneOf('AES-GCM'), iv: shortB64 }),
  ciphertext: b64,
});

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s)
    throw new AppError('internal', 'WebCrypto is not available here (it needs a secure context).');
  return s;
}

async function deriveKey(
  passphrase: string,
  salt: Uint8Array,
  iterations: number,
): Promise<CryptoKey> {
  const material = await subtle().importKey(
    'raw',
    new TextEncoder().encode(passphrase),
    'PBKDF2',
    false,
    ['deriveKey'],
  );
  return subtle().deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** Seals `plain` with AES-256-GCM under a fresh salt and iv: the envelope but its ciphertext. */
async function seal(
  plain: BufferSource,
  passphrase: string,
  iterations: number,
): Promise<{ envelope: Omit<EncryptedEnvelope, 'ciphertext'>; sealed: Uint8Array }> {
  if (passphrase.length === 0) throw new AppError('invalid_argument', 'The passphrase is empty.');
  const salt = globalThis.crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const key = await deriveKey(passphrase, salt, iterations);
  const sealed = await subtle().encrypt({ name: 'AES-GCM', iv }, key, plain);
  return {
    envelope: {
      format: ENCRYPTED_FORMAT,
      version: BACKUP_VERSION,
      kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations, salt: encodeBase64(salt) },
      cipher: { name: 'AES-GCM', iv: encodeBase64(iv) },
    },
    sealed: new Uint8Array(sealed),
  };
}

/** Encrypts the backup's JSON text with AES-256-GCM under a PBKDF2-SHA-256 key of `passphrase`. */
export async function encryptBackup(
  plaintext: string,
  passphrase: string,
  iterations: number = PBKDF2_ITERATIONS,
): Promise<EncryptedEnvelope> {
  const { envelope, sealed } = await seal(
    new TextEncoder().encode(plaintext),
    passphrase,
    iterations,
  );
  return { ...envelope, ciphertext: encodeBase64(sealed) };
}

/** Bytes of ciphertext per base64 piece of an encrypted export (a multiple of 3: no padding between). */
const CIPHERTEXT_PIECE_BYTES = 3 << 18;

/**
 * {@link encryptBackup} of a backup held as a `Blob` (X244, ADR 0192), giving the envelope as a
 * `Blob` too: the same JSON text, with the ciphertext's base64 written in pieces of 1 MB, so no
 * string holds the file. WebCrypto's AES-GCM seals one buffer in one call, so the plain text and
 * the ciphertext are each held once as bytes (outside the JS heap's strings) while it runs; a
 * streamed cipher would need a new, chunked envelope format.
 */
export async function encryptBackupBlob(
  plain: Blob,
  passphrase: string,
  iterations: number = PBKDF2_ITERATIONS,
): Promise<Blob> {
  const { envelope, sealed } = await seal(await plain.arrayBuffer(), passphrase, iterations);
  // The envelope's text with an empty ciphertext ends with `""}`: the pieces go between the quotes.
  const text = JSON.stringify({ ...envelope, ciphertext: '' });
  const pieces: BlobPart[] = [text.slice(0, -2)];
  for (let from = 0; from < sealed.length; from += CIPHERTEXT_PIECE_BYTES) {
    pieces.push(new Blob([encodeBase64(sealed.subarray(from, from + CIPHERTEXT_PIECE_BYTES))]));
  }
  pieces.push('"}');
  return new Blob(pieces, { type: 'application/json' });
}

/**
 * Decrypts an envelope. A wrong passphrase and an altered file are the same failure to AES-GCM
 * (the tag does not verify), so both are `backup_wrong_passphrase` with a message naming both.
 */
export async function decryptBackup(
  value: unknown,
  passphrase: string | undefined,
): Promise<string> {
  let envelope: EncryptedEnvelope;
  try {
    envelope = envelopeCheck(value, '$');
  } catch (error) {
    if (!(error instanceof CheckFailure)) throw error;
    const path = error.path.replace(/^\$\.?/, '') || '$';
    throw new AppError(
      'backup_invalid',
      `The encrypted backup is malformed: ${path} ${error.message}.`,
      { path },
    );
  }
  const salt = decodeBase64(envelope.kdf.salt);
  const iv = decodeBase64(envelope.cipher.iv);
  const sealed = decodeBase64(envelope.ciphertext);
  if (!salt || !iv || !sealed) {
    throw new AppError(
      'backup_invalid',
      'The encrypted backup is malformed: salt, iv or ciphertext is not valid base64.',
    );
  }
  // A short salt would make one precomputed key fit many backups; this app writes 16 bytes.
  if (salt.length < SALT_BYTES || salt.length > MAX_SALT_BYTES) {
    throw new AppError(
      'backup_invalid',
      `The encrypted backup is malformed: kdf.salt is ${salt.length} bytes; it must be ${SALT_BYTES} to ${MAX_SALT_BYTES}.`,
      { path: 'kdf.salt' },
    );
  }
  if (iv.length !== IV_BYTES) {
    throw new AppError(
      'backup_invalid',
      `The encrypted backup is malformed: cipher.iv is ${iv.length} bytes; AES-GCM needs ${IV_BYTES}.`,
      { path: 'cipher.iv' },
    );
  }
  if (!passphrase) {
    throw new AppError(
      'backup_wrong_passphrase',
      'This backup is encrypted: enter its passphrase to import it.',
    );
  }
  const key = await deriveKey(passphrase, salt, envelope.kdf.iterations);
  let plain: ArrayBuffer;
  try {
    plain = await subtle().decrypt(
      { name: 'AES-GCM', iv: iv as BufferSource },
      key,
      sealed as BufferSource,
    );
  } catch (error) {
    throw new AppError(
      'backup_wrong_passphrase',
      'The passphrase is wrong, or the backup file was altered after it was made.',
      { cause: error instanceof Error ? error.name : String(error) },
    );
  }
  return new TextDecoder().decode(plain);
}
