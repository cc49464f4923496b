/**
 * A Korean sentence without its address: the vocative of a speaker's name
 * ("민수님, …"), an interjection ("네, …") or a connective ("그리고 …").
 */

/** Korean vocative pattern of a name, compiled once. */
const koreanVocatives = new Map<string, RegExp>();

function koreanVocative(name: string): RegExp {
  let re = koreanVocatives.get(name);
  if (!re) {
    const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    re = new RegExp(`^${esc}(?:님|씨|아|야)?\\s*[,!.]\\s*`);
    if (koreanVocatives.size >= 256) koreanVocatives.clear();
    koreanVocatives.set(name, re);
  }
  return re;
}

/** Korean vocatives: "민수님, …", "민수야 …". */
export function stripKoreanAddress(sentence: string, names: string[]): string {
  let s = sentence.trim();
  for (const name of names) {
    if (name.length < 2) continue;
    s = s.replace(koreanVocative(name), '');
  }
  return s
    .replace(/^(?:네|넵|응|아|오|와|음|그래|좋아요|좋아|알겠어요|알겠습니다)\s*[,!.~]+\s*/, '')
    .replace(/^(?:그리고|그런데|근데|그래서|참|아 참)\s+/, '')
    .trim();
}
