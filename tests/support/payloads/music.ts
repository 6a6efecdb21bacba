/**
 * MusicBrainz /ws/2 answers with fmt=json, in the real shapes: hyphenated keys ("life-span",
 * "release-groups", "artist-credit"), nulls for unknown values, `score` on search hits, `track` in
 * search media but `tracks` in lookups, and the JSON error bodies of 404 and the 503 rate limit.
 */

export const RADIOHEAD_MBID = "a74b1b7f-71a5-4011-9441-d0b5e4122711";
export const OK_COMPUTER_MBID = "52709206-8816-3c12-9ff6-f957f2f1eecf";
export const CREEP_MBID = "b8a0e0c6-2c74-4f1f-8e0c-11b6c7a1f4c3";

const UNITED_KINGDOM = {
  id: "8a754a16-0027-3a29-b6d7-2b40ea0481ed",
  type: "Country",
  "type-id": "06dd0ae4-8c74-30bb-b43d-95dcedf961de",
  name: "United Kingdom",
  "sort-name": "United Kingdom",
  "life-span": { ended: null },
};

const RADIOHEAD_CREDIT = [
  {
    name: "Radiohead",
    joinphrase: "",
    artist: {
      id: RADIOHEAD_MBID,
      name: "Radiohead",
      "sort-name": "Radiohead",
      disambiguation: "",
      type: "Group",
      "type-id": "e431f5f6-b5d2-343d-8b36-72607fffb74b",
    },
  },
];

export const MUSICBRAINZ_ARTIST_SEARCH = {
  created: "2026-11-24T10:15:02.123Z",
  count: 2,
  offset: 0,
  artists: [
    {
      id: RADIOHEAD_MBID,
      type: "Group",
      "type-id": "e431f5f6-b5d2-343d-8b36-72607fffb74b",
      score: 100,
      name: "Radiohead",
      "sort-name": "Radiohead",
      country: "GB",
      area: UNITED_KINGDOM,
      "begin-area": {
        id: "a640b45c-c173-49b1-8030-973603e895b5",
        type: "City",
        "type-id": "6fd8f29a-3d0a-32fc-980d-ea697b69da78",
        name: "Abingdon-on-Thames",
        "sort-name": "Abingdon-on-Thames",
        "life-span": { ended: null },
      },
      isnis: ["0000000115475162"],
      "life-span": { begin: "1991", ended: null },
      aliases: [{ "sort-name": "On A Friday", name: "On A Friday", locale: null, type: null, primary: null }],
      tags: [
        { count: 21, name: "rock" },
        { count: 17, name: "alternative rock" },
      ],
    },
    {
      id: "f5cd8d9d-4a4d-4f37-9c5a-9e7b7c0f6c11",
      type: "Person",
      "type-id": "b6e035f4-3ce9-331c-97df-83397230b0df",
      score: "61",
      gender: "male",
      name: "Radiohead Tribute",
      "sort-name": "Tribute, Radiohead",
      disambiguation: "string quartet covers",
      "life-span": { begin: "2001-03", end: "2009", ended: true },
    },
  ],
};

export const MUSICBRAINZ_EMPTY_ARTIST_SEARCH = {
  created: "2026-11-24T10:15:02.123Z",
  count: 0,
  offset: 0,
  artists: [],
};

export const MUSICBRAINZ_RECORDING_SEARCH = {
  created: "2026-11-24T10:16:40.872Z",
  count: 312,
  offset: 0,
  recordings: [
    {
      id: CREEP_MBID,
      score: 100,
      title: "Creep",
      length: 238640,
      video: null,
      "artist-credit": RADIOHEAD_CREDIT,
      "first-release-date": "1992-09-21",
      releases: [
        {
          id: "cf1e5b2a-6c1d-4b8e-9c5f-0d0b2d6a7e21",
          "status-id": "4e304316-386d-3409-af2e-78857eec5cfe",
          count: 1,
          title: "Pablo Honey",
          status: "Official",
          "release-group": {
            id: "a49e2d5f-7a86-3d2a-8b1c-0e6bd9c1d2f3",
            "type-id": "f529b476-6e62-324f-b0aa-1f3e33d313fc",
            "primary-type-id": "f529b476-6e62-324f-b0aa-1f3e33d313fc",
            title: "Pablo Honey",
            "primary-type": "Album",
          },
          date: "1993-02-22",
          country: "GB",
          "track-count": 12,
          media: [
            {
              position: 1,
              format: "CD",
              track: [{ id: "4f3d0d3e-6c2b-3b7e-a0de-2a0d9f7b6a11", number: "2", title: "Creep", length: 238000 }],
              "track-count": 12,
              "track-offset": 1,
            },
          ],
        },
      ],
      isrcs: ["GBAYE9200070"],
    },
    {
      id: "0d5c8a8e-3b1e-4c55-8f4e-8a0b5c4f2d90",
      score: 88,
      title: "Creep",
      length: null,
      video: null,
      "artist-credit": [
        { name: "Scala & Kolacny Brothers", joinphrase: " feat. ", artist: { id: "x1", name: "Scala" } },
        { name: "Radiohead", artist: { id: RADIOHEAD_MBID, name: "Radiohead" } },
      ],
    },
  ],
};

export const MUSICBRAINZ_RELEASE_SEARCH = {
  created: "2026-11-24T10:17:11.004Z",
  count: 41,
  offset: 0,
  releases: [
    {
      id: OK_COMPUTER_MBID,
      score: 100,
      "status-id": "4e304316-386d-3409-af2e-78857eec5cfe",
      count: 1,
      title: "OK Computer",
      status: "Official",
      "text-representation": { language: "eng", script: "Latn" },
      "artist-credit": RADIOHEAD_CREDIT,
      "release-group": {
        id: "b1392450-e666-3926-a536-22c65f834433",
        "type-id": "f529b476-6e62-324f-b0aa-1f3e33d313fc",
        "primary-type-id": "f529b476-6e62-324f-b0aa-1f3e33d313fc",
        title: "OK Computer",
        "primary-type": "Album",
      },
      date: "1997-05-21",
      country: "GB",
      "release-events": [{ date: "1997-05-21", area: UNITED_KINGDOM }],
      barcode: "724385522925",
      "label-info": [{ "catalog-number": "NODATA 02", label: { id: "l1", name: "Parlophone" } }],
      "track-count": 12,
      media: [{ format: "CD", "disc-count": 1, "track-count": 12 }],
    },
  ],
};

export const MUSICBRAINZ_ARTIST_LOOKUP = {
  id: RADIOHEAD_MBID,
  name: "Radiohead",
  "sort-name": "Radiohead",
  disambiguation: "",
  type: "Group",
  "type-id": "e431f5f6-b5d2-343d-8b36-72607fffb74b",
  gender: null,
  "gender-id": null,
  country: "GB",
  area: UNITED_KINGDOM,
  "begin-area": { id: "a640b45c-c173-49b1-8030-973603e895b5", name: "Abingdon-on-Thames", type: "City" },
  "end-area": null,
  "life-span": { begin: "1991", end: null, ended: false },
  isnis: ["0000000115475162"],
  ipis: [],
  "release-groups": [
    {
      id: "b1392450-e666-3926-a536-22c65f834433",
      title: "OK Computer",
      "primary-type": "Album",
      "primary-type-id": "f529b476-6e62-324f-b0aa-1f3e33d313fc",
      "secondary-types": [],
      "secondary-type-ids": [],
      "first-release-date": "1997-05-21",
      disambiguation: "",
    },
    {
      id: "a49e2d5f-7a86-3d2a-8b1c-0e6bd9c1d2f3",
      title: "Pablo Honey",
      "primary-type": "Album",
      "primary-type-id": "f529b476-6e62-324f-b0aa-1f3e33d313fc",
      "secondary-types": [],
      "secondary-type-ids": [],
      "first-release-date": "1993-02-22",
      disambiguation: "",
    },
    {
      id: "6e3c1e0a-2f8b-3e0b-8d0c-3c5e3e1f0a77",
      title: "I Might Be Wrong: Live Recordings",
      "primary-type": "Album",
      "primary-type-id": "f529b476-6e62-324f-b0aa-1f3e33d313fc",
      "secondary-types": ["Live"],
      "secondary-type-ids": ["6fd474e2-6b58-3102-9d17-d6f7eb7da0a0"],
      "first-release-date": "2001-11-12",
      disambiguation: "",
    },
    {
      id: "c4b1a0f2-7d55-4f4c-9a9b-1f0e2d3c4b5a",
      title: "Untitled demo",
      "primary-type": null,
      "primary-type-id": null,
      "secondary-types": [],
      "secondary-type-ids": [],
      "first-release-date": "",
      disambiguation: "",
    },
  ],
};

export const MUSICBRAINZ_RELEASE_LOOKUP = {
  id: OK_COMPUTER_MBID,
  title: "OK Computer",
  status: "Official",
  "status-id": "4e304316-386d-3409-af2e-78857eec5cfe",
  date: "1997-05-21",
  country: "GB",
  barcode: "724385522925",
  disambiguation: "",
  quality: "normal",
  packaging: "Jewel Case",
  "text-representation": { language: "eng", script: "Latn" },
  "artist-credit": RADIOHEAD_CREDIT,
  "release-group": {
    id: "b1392450-e666-3926-a536-22c65f834433",
    title: "OK Computer",
    "primary-type": "Album",
    "secondary-types": [],
    "first-release-date": "1997-05-21",
    disambiguation: "",
  },
  media: [
    {
      position: 1,
      title: "",
      format: "CD",
      "format-id": "9712d52a-4509-3d4b-a1a2-67c88c643e31",
      "track-count": 3,
      "track-offset": 0,
      tracks: [
        {
          id: "t1",
          number: "1",
          position: 1,
          title: "Airbag",
          length: 284000,
          recording: { id: "r1", title: "Airbag", length: 283840, video: false, disambiguation: "" },
        },
        {
          id: "t2",
          number: "2",
          position: 2,
          title: "Paranoid Android",
          length: 383000,
          recording: { id: "r2", title: "Paranoid Android", length: 386733, video: false, disambiguation: "" },
        },
        {
          id: "t3",
          number: "3",
          position: 3,
          title: "Subterranean Homesick Alien",
          length: null,
          recording: { id: "r3", title: "Subterranean Homesick Alien", length: null, video: false },
        },
      ],
    },
  ],
};

export const MUSICBRAINZ_RECORDING_LOOKUP = {
  id: CREEP_MBID,
  title: "Creep",
  length: 238640,
  video: false,
  disambiguation: "",
  "first-release-date": "1992-09-21",
  "artist-credit": RADIOHEAD_CREDIT,
  releases: [
    {
      id: "cf1e5b2a-6c1d-4b8e-9c5f-0d0b2d6a7e21",
      title: "Pablo Honey",
      status: "Official",
      date: "1993-02-22",
      country: "GB",
      disambiguation: "",
      quality: "normal",
      barcode: "",
      "text-representation": { language: "eng", script: "Latn" },
    },
    {
      id: "d2e7f1a0-1b2c-4d3e-8f9a-0b1c2d3e4f50",
      title: "Creep",
      status: "Official",
      date: "1992-09-21",
      country: null,
      disambiguation: "",
    },
  ],
};

export const MUSICBRAINZ_NOT_FOUND = {
  error: "Not Found",
  help: "For usage, please see: https://musicbrainz.org/development/mmd",
};

export const MUSICBRAINZ_RATE_LIMITED = {
  error:
    "Your requests are exceeding the allowable rate limit. Please see http://wiki.musicbrainz.org/XMLWebService " +
    "for more information.",
};
