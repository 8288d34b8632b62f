import type { MessageAddressObject } from 'imapflow';

/** `Name <address>`, or the address alone, as mail programs show a sender. */
export function addressText(address: { name?: string | undefined; address?: string | undefined }): string {
  const name = address.name?.trim() ?? '';
  const mailbox = address.address ?? '';
  if (name === '') return mailbox;
  return mailbox === '' ? name : `${name} <${mailbox}>`;
}

export function addressListText(addresses: readonly MessageAddressObject[] | undefined): string[] {
  return (addresses ?? []).map(addressText);
}
