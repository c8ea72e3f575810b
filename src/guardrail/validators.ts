// Checksums that separate real card numbers and IBANs from look-alike digit runs (order ids, versions).

/** Luhn (mod 10) over the digits of `text`, ignoring every other character. */
export function passesLuhn(text: string): boolean {
  let sum = 0;
  let count = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const code = text.charCodeAt(i) - 48;
    if (code < 0 || code > 9) continue;
    const doubled = count % 2 === 1 ? code * 2 : code;
    sum += doubled > 9 ? doubled - 9 : doubled;
    count++;
  }
  return count >= 12 && sum % 10 === 0;
}

/** ISO 13616 mod-97 check of an IBAN, spaces allowed. */
export function passesIban(text: string): boolean {
  const iban = text.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= 'A' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    remainder = value > 9 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder === 1;
}
