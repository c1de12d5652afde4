import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';

/** A model file whisper.cpp publishes. */
export interface OfficialWhisperModel {
  /** whisper.cpp's name for it, as its download script takes it: `base.en`, `large-v3-turbo-q5_0`. */
  name: string;
  /** The published file name: `ggml-<name>.bin`. */
  fileName: string;
  sizeBytes: number;
  /** Lower-case hex SHA-256 of the whole file. */
  sha256: string;
}

/**
 * The ggml models published at huggingface.co/ggerganov/whisper.cpp, with the SHA-256 and byte
 * size of each file (its Git LFS object id). `.en` models know English only; `-q5_0`, `-q5_1`
 * and `-q8_0` are quantised copies, smaller and faster at a small cost in accuracy.
 */
export const OFFICIAL_WHISPER_MODELS: readonly OfficialWhisperModel[] = [
  official('tiny', 77_691_713, 'be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21'),
  official('tiny-q5_1', 32_152_673, '818710568da3ca15689e31a743197b520007872ff9576237bda97bd1b469c3d7'),
  official('tiny-q8_0', 43_537_433, 'c2085835d3f50733e2ff6e4b41ae8a2b8d8110461e18821b09a15c40c42d1cca'),
  official('tiny.en', 77_704_715, '921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f'),
  official('tiny.en-q5_1', 32_166_155, 'c77c5766f1cef09b6b7d47f21b546cbddd4157886b3b5d6d4f709e91e66c7c2b'),
  official('tiny.en-q8_0', 43_550_795, '5bc2b3860aa151a4c6e7bb095e1fcce7cf12c7b020ca08dcec0c6d018bb7dd94'),
  official('base', 147_951_465, '60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe'),
  official('base-q5_1', 59_707_625, '422f1ae452ade6f30a004d7e5c6a43195e4433bc370bf23fac9cc591f01a8898'),
  official('base-q8_0', 81_768_585, 'c577b9a86e7e048a0b7eada054f4dd79a56bbfa911fbdacf900ac5b567cbb7d9'),
  official('base.en', 147_964_211, 'a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002'),
  official('base.en-q5_1', 59_721_011, '4baf70dd0d7c4247ba2b81fafd9c01005ac77c2f9ef064e00dcf195d0e2fdd2f'),
  official('base.en-q8_0', 81_781_811, 'a4d4a0768075e13cfd7e19df3ae2dbc4a68d37d36a7dad45e8410c9a34f8c87e'),
  official('small', 487_601_967, '1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b'),
  official('small-q5_1', 190_085_487, 'ae85e4a935d7a567bd102fe55afc16bb595bdb618e11b2fc7591bc08120411bb'),
  official('small-q8_0', 264_464_607, '49c8fb02b65e6049d5fa6c04f81f53b867b5ec9540406812c643f177317f779f'),
  official('small.en', 487_614_201, 'c6138d6d58ecc8322097e0f987c32f1be8bb0a18532a3f88f734d1bbf9c41e5d'),
  official('small.en-q5_1', 190_098_681, 'bfdff4894dcb76bbf647d56263ea2a96645423f1669176f4844a1bf8e478ad30'),
  official('small.en-q8_0', 264_477_561, '67a179f608ea6114bd3fdb9060e762b588a3fb3bd00c4387971be4d177958067'),
  official('medium', 1_533_763_059, '6c14d5adee5f86394037b4e4e8b59f1673b6cee10e3cf0b11bbdbee79c156208'),
  official('medium-q5_0', 539_212_467, '19fea4b380c3a618ec4723c3eef2eb785ffba0d0538cf43f8f235e7b3b34220f'),
  official('medium-q8_0', 823_369_779, '42a1ffcbe4167d224232443396968db4d02d4e8e87e213d3ee2e03095dea6502'),
  official('medium.en', 1_533_774_781, 'cc37e93478338ec7700281a7ac30a10128929eb8f427dda2e865faa8f6da4356'),
  official('medium.en-q5_0', 539_225_533, '76733e26ad8fe1c7a5bf7531a9d41917b2adc0f20f2e4f5531688a8c6cd88eb0'),
  official('medium.en-q8_0', 823_382_461, '43fa2cd084de5a04399a896a9a7a786064e221365c01700cea4666005218f11c'),
  official('large-v1', 3_094_623_691, '7d99f41a10525d0206bddadd86760181fa920438b6b33237e3118ff6c83bb53d'),
  official('large-v2', 3_094_623_691, '9a423fe4d40c82774b6af34115b8b935f34152246eb19e80e376071d3f999487'),
  official('large-v2-q5_0', 1_080_732_091, '3a214837221e4530dbc1fe8d734f302af393eb30bd0ed046042ebf4baf70f6f2'),
  official('large-v2-q8_0', 1_656_129_691, 'fef54e6d898246a65c8285bfa83bd1807e27fadf54d5d4e81754c47634737e8c'),
  official('large-v3', 3_095_033_483, '64d182b440b98d5203c4f9bd541544d84c605196c4f7b845dfa11fb23594d1e2'),
  official('large-v3-q5_0', 1_081_140_203, 'd75795ecff3f83b5faa89d1900604ad8c780abd5739fae406de19f23ecd98ad1'),
  official('large-v3-turbo', 1_624_555_275, '1fc70f774d38eb169993ac391eea357ef47c88757ef72ee5943879b7e8e2bc69'),
  official('large-v3-turbo-q5_0', 574_041_195, '394221709cd5ad1f40c46e6031ca61bce88931e6e088c188294c6d5a55ffa7e2'),
  official('large-v3-turbo-q8_0', 874_188_075, '317eb69c11673c9de1e1f0d459b253999804ec71ac4c23c17ecf5fbe24e259a1'),
];

/** What a model file is: an official whisper.cpp release (matched by its SHA-256) or something else. */
export interface ModelDescription {
  /** The official model name when the file is one (`base.en`), else the file's name. */
  name: string;
  sha256: string;
  official: boolean;
  sizeBytes: number;
}

/** Hashes the file at `path` and looks it up among the official models. Reads the whole file once. */
export async function describeModel(path: string): Promise<ModelDescription> {
  const [{ size }, sha256] = await Promise.all([stat(path), sha256OfFile(path)]);
  const match = OFFICIAL_WHISPER_MODELS.find((model) => model.sha256 === sha256);
  return { name: match?.name ?? basename(path), sha256, official: match !== undefined, sizeBytes: size };
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function official(name: string, sizeBytes: number, sha256: string): OfficialWhisperModel {
  return { name, fileName: `ggml-${name}.bin`, sizeBytes, sha256 };
}

/** The languages a multilingual Whisper model transcribes (ISO 639-1, and `haw`, `yue`); `.en` models know `en` only. */
export const WHISPER_LANGUAGES: readonly string[] = [
  'af',
  'am',
  'ar',
  'as',
  'az',
  'ba',
  'be',
  'bg',
  'bn',
  'bo',
  'br',
  'bs',
  'ca',
  'cs',
  'cy',
  'da',
  'de',
  'el',
  'en',
  'es',
  'et',
  'eu',
  'fa',
  'fi',
  'fo',
  'fr',
  'gl',
  'gu',
  'ha',
  'haw',
  'he',
  'hi',
  'hr',
  'ht',
  'hu',
  'hy',
  'id',
  'is',
  'it',
  'ja',
  'jw',
  'ka',
  'kk',
  'km',
  'kn',
  'ko',
  'la',
  'lb',
  'ln',
  'lo',
  'lt',
  'lv',
  'mg',
  'mi',
  'mk',
  'ml',
  'mn',
  'mr',
  'ms',
  'mt',
  'my',
  'ne',
  'nl',
  'nn',
  'no',
  'oc',
  'pa',
  'pl',
  'ps',
  'pt',
  'ro',
  'ru',
  'sa',
  'sd',
  'si',
  'sk',
  'sl',
  'sn',
  'so',
  'sq',
  'sr',
  'su',
  'sv',
  'sw',
  'ta',
  'te',
  'tg',
  'th',
  'tk',
  'tl',
  'tr',
  'tt',
  'uk',
  'ur',
  'uz',
  'vi',
  'yi',
  'yo',
  'yue',
  'zh',
];
