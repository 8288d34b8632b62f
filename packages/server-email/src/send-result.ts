/** What send_email returns, and what a retry with the same idempotency key gets back. */
export type SendResult = {
  message_id: string;
  delivery: 'smtp' | 'outbox';
  accepted: string[];
  rejected: { address: string; reason: string }[];
  size_bytes: number;
  outbox_file?: string | undefined;
  replayed: boolean;
};
