/** How records name their owners: the user and channel only for admins, who may read them. */
export interface LogNames {
  userName?: (id: number) => string;
  keyName: (id: number) => string;
  channelName?: (id: number | null) => string;
}
