/** Admin-api section 15: one request makes 1 to 1,000 redemption or invite codes. */
export const MAX_CODES_PER_BATCH = 1000;
