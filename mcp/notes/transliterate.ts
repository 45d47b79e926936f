/**
 * Latin spellings for the letters a slug cannot hold: accents are dropped by Unicode decomposition, and a
 * small table covers what decomposition leaves alone (`ß`, `æ`, `ł`) plus the Cyrillic and Greek alphabets.
 * @module
 */

const CYRILLIC = "а=a б=b в=v г=g д=d е=e ё=e ж=zh з=z и=i й=y к=k л=l м=m н=n о=o п=p р=r с=s т=t у=u " +
  "ф=f х=kh ц=ts ч=ch ш=sh щ=shch ъ= ы=y ь= э=e ю=yu я=ya і=i ї=yi є=ye ґ=g ў=u";
const GREEK = "α=a β=v γ=g δ=d ε=e ζ=z η=i θ=th ι=i κ=k λ=l μ=m ν=n ξ=x ο=o π=p ρ=r σ=s ς=s τ=t υ=y " +
  "φ=f χ=ch ψ=ps ω=o";
const LATIN = "ß=ss æ=ae œ=oe ø=o đ=d ð=d þ=th ł=l ı=i ħ=h ŋ=ng";

const TABLE: ReadonlyMap<string, string> = new Map(
  `${CYRILLIC} ${GREEK} ${LATIN}`.split(" ").map((pair) => pair.split("=") as [string, string]),
);

/** `"Straße Заметки Ωμέγα"` → `"strasse zametki omega"`: lowercase, other scripts left as they are. */
export function transliterate(text: string): string {
  let out = "";
  for (const char of text.toLowerCase().normalize("NFC")) {
    out += TABLE.get(char) ??
      [...char.normalize("NFKD").toLowerCase().replace(/\p{M}+/gu, "")].map((part) => TABLE.get(part) ?? part)
        .join("");
  }
  return out;
}
