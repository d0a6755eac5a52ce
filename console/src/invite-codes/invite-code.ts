/** An invite code as `GET /api/invite-codes` lists it (admin-api section 15): `code` masked. */
export interface InviteCode {
  id: number;
  code: string;
  status: 'unused' | 'used' | (string & {});
  used_by: number | null;
  used_at: number | null;
  created_at: number;
}
