import { setFlagsFromString } from 'node:v8';

/**
 * V8 allocates objects straight into the old generation ("pretenures" them) once most objects made
 * at the same place in the code have outlived young collections. A gateway's streams live for
 * seconds to minutes, so while many are open the places that make every request's objects qualify,
 * and stay so after the streams have ended: from then on each short request's objects fill the old
 * generation, every young collection copies what they point to, and full collections come every
 * few seconds (bench/README.md has the figures). Imported first by the entry
 * point; the flag is read at each collection, so setting it once the engine runs takes effect.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
