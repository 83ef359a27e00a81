/** A fresh id for a call the SDK names itself (tag-parsed calls, scripted calls). */
export function newCallId(): string {
  return `call_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
}
