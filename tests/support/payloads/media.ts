/**
 * Answers in the shape of OMDb (www.omdbapi.com: every value a string, "N/A" for nothing, HTTP 200 with
 * `"Response": "False"` when nothing matches, HTTP 401 for a bad key), RAWG (api.rawg.io: HTML descriptions,
 * nested platforms, nulls, `{"detail": "Not found."}`), and DuckDuckGo result pages of IMDb and Wikipedia.
 */
import { duckDuckGoPage, duckDuckGoResult } from "./duckduckgo.js";

const POSTER = "https://m.media-amazon.com/images/M/MV5BOWQ4YTBmNTQtMDYxMC00NGFjLTkwOGQtNzdhNmY1Nzc1MzUxXkEyXkFqcGc@";

export const OMDB_SEARCH_BLADE_RUNNER = {
  Search: [
    { Title: "Blade Runner", Year: "1982", imdbID: "tt0083658", Type: "movie", Poster: `${POSTER}._V1_SX300.jpg` },
    { Title: "Blade Runner 2049", Year: "2017", imdbID: "tt1856101", Type: "movie", Poster: `${POSTER}.jpg` },
    { Title: "Blade Runner: Black Lotus", Year: "2021–2022", imdbID: "tt12373138", Type: "series", Poster: "N/A" },
    { Title: "Blade Runner: Black Out 2022", Year: "2017", imdbID: "tt7428594", Type: "movie", Poster: "N/A" },
  ],
  totalResults: "38",
  Response: "True",
};

export const OMDB_BLADE_RUNNER = {
  Title: "Blade Runner",
  Year: "1982",
  Rated: "R",
  Released: "25 Jun 1982",
  Runtime: "117 min",
  Genre: "Action, Drama, Sci-Fi",
  Director: "Ridley Scott",
  Writer: "Hampton Fancher, David Webb Peoples, Philip K. Dick",
  Actors: "Harrison Ford, Rutger Hauer, Sean Young",
  Plot:
    "In the 21st century, a corporation develops human clones to be used as slaves in colonies outside the " +
    "Earth, identified as replicants. In 2019, a former police officer is hired to hunt down a fugitive group " +
    "of clones living undercover in Los Angeles.",
  Language: "English, German, Cantonese, Japanese, Hungarian, Arabic, Korean",
  Country: "United States",
  Awards: "Nominated for 2 Oscars. 13 wins & 23 nominations total",
  Poster: `${POSTER}._V1_SX300.jpg`,
  Ratings: [
    { Source: "Internet Movie Database", Value: "8.1/10" },
    { Source: "Rotten Tomatoes", Value: "89%" },
    { Source: "Metacritic", Value: "84/100" },
  ],
  Metascore: "84",
  imdbRating: "8.1",
  imdbVotes: "845,327",
  imdbID: "tt0083658",
  Type: "movie",
  DVD: "N/A",
  BoxOffice: "$32,914,489",
  Production: "N/A",
  Website: "N/A",
  Response: "True",
};

/** A series: `totalSeasons`, and "N/A" where a film would have a box office and a Metascore. */
export const OMDB_BLACK_LOTUS = {
  Title: "Blade Runner: Black Lotus",
  Year: "2021–2022",
  Rated: "TV-MA",
  Released: "13 Nov 2021",
  Runtime: "30 min",
  Genre: "Animation, Action, Crime",
  Director: "N/A",
  Writer: "Alex DeCamp, Kenji Kamiyama, Shinji Aramaki",
  Actors: "Jessica Henwick, Will Yun Lee, Wes Bentley",
  Plot: "Los Angeles, 2032. A young woman wakes up with no memory, possessing deadly skills.",
  Language: "English",
  Country: "United States, Japan",
  Awards: "N/A",
  Poster: "N/A",
  Ratings: [{ Source: "Internet Movie Database", Value: "6.3/10" }],
  Metascore: "N/A",
  imdbRating: "6.3",
  imdbVotes: "9,611",
  imdbID: "tt12373138",
  Type: "series",
  totalSeasons: "1",
  Response: "True",
};

export const OMDB_MOVIE_NOT_FOUND = { Response: "False", Error: "Movie not found!" };
export const OMDB_TOO_MANY_RESULTS = { Response: "False", Error: "Too many results." };
export const OMDB_INCORRECT_ID = { Response: "False", Error: "Incorrect IMDb ID." };
/** Sent with HTTP 401. */
export const OMDB_INVALID_KEY = { Response: "False", Error: "Invalid API key!" };

const platform = (id: number, name: string, slug: string) => ({
  platform: { id, name, slug, image: null, year_end: null, year_start: null, games_count: 1000 + id },
  released_at: "2011-04-18",
  requirements_en: null,
  requirements_ru: null,
});

const genre = (id: number, name: string, slug: string) => ({
  id,
  name,
  slug,
  games_count: 20000 + id,
  image_background: `https://media.rawg.io/media/games/${slug}.jpg`,
});

const ratings = [
  { id: 5, title: "exceptional", count: 4012, percent: 70.7 },
  { id: 4, title: "recommended", count: 1384, percent: 24.39 },
  { id: 3, title: "meh", count: 186, percent: 3.28 },
  { id: 1, title: "skip", count: 92, percent: 1.62 },
];

const PORTAL_2_LISTED = {
  slug: "portal-2",
  name: "Portal 2",
  playtime: 11,
  platforms: [
    platform(4, "PC", "pc"),
    platform(16, "PlayStation 3", "playstation3"),
    platform(14, "Xbox 360", "xbox360"),
    platform(5, "macOS", "macos"),
    platform(6, "Linux", "linux"),
  ],
  stores: [{ store: { id: 1, name: "Steam", slug: "steam" } }],
  released: "2011-04-18",
  tba: false,
  background_image: "https://media.rawg.io/media/games/2ba/2bac0e87cf45e5b508f227d281c9252a.jpg",
  rating: 4.61,
  rating_top: 5,
  ratings,
  ratings_count: 5674,
  reviews_text_count: 34,
  added: 21340,
  added_by_status: { yet: 640, owned: 13100, beaten: 5930, toplay: 440, dropped: 710, playing: 520 },
  metacritic: 95,
  suggestions_count: 1261,
  updated: "2025-06-02T10:12:44",
  id: 4200,
  score: null,
  clip: null,
  tags: [{ id: 31, name: "Singleplayer", slug: "singleplayer", language: "eng", games_count: 230000 }],
  esrb_rating: { id: 2, name: "Everyone 10+", slug: "everyone-10-plus" },
  user_game: null,
  reviews_count: 5674,
  saturated_color: "0f0f0f",
  dominant_color: "0f0f0f",
  short_screenshots: [{ id: -1, image: "https://media.rawg.io/media/games/2ba/2bac0e87cf45e5b508f227d281c9252a.jpg" }],
  parent_platforms: [{ platform: { id: 1, name: "PC", slug: "pc" } }],
  genres: [genre(2, "Shooter", "shooter"), genre(7, "Puzzle", "puzzle")],
};

/** A fan game nobody rated: zero ratings, no Metacritic score, no platforms, no genres, no date yet. */
const UNRATED_FAN_GAME = {
  slug: "portal-forever-2",
  name: "Portal Forever",
  playtime: 0,
  platforms: null,
  stores: null,
  released: null,
  tba: true,
  background_image: null,
  rating: 0,
  rating_top: 0,
  ratings: [],
  ratings_count: 0,
  reviews_text_count: 0,
  added: 3,
  added_by_status: null,
  metacritic: null,
  suggestions_count: 0,
  updated: "2024-02-11T08:30:02",
  id: 981204,
  score: null,
  clip: null,
  tags: [],
  esrb_rating: null,
  user_game: null,
  reviews_count: 0,
  saturated_color: "0f0f0f",
  dominant_color: "0f0f0f",
  short_screenshots: [],
  parent_platforms: [],
  genres: [],
};

export const RAWG_SEARCH_PORTAL = {
  count: 312,
  next: "https://api.rawg.io/api/games?key=fixture&page=2&page_size=2&search=portal",
  previous: null,
  results: [PORTAL_2_LISTED, UNRATED_FAN_GAME],
  user_platforms: false,
};

export const RAWG_SEARCH_NOTHING = { count: 0, next: null, previous: null, results: [], user_platforms: false };

export const RAWG_PORTAL_2 = {
  ...PORTAL_2_LISTED,
  name_original: "Portal 2",
  description:
    "<p>Portal 2 is a first-person puzzle game developed by Valve Corporation and released on April 19, 2011 " +
    "on Steam, PS3 and Xbox 360.</p>\n<h3>Plot</h3>\n<p>Chell wakes up &quot;many years later&quot; in " +
    "Aperture Science&#39;s decaying facility.<br />\nWheatley, a personality core, helps her escape.</p>\n" +
    "<p>The co-op campaign pairs two robots, Atlas &amp; P-Body.</p>",
  metacritic_platforms: [
    { metascore: 95, url: "https://www.metacritic.com/game/pc/portal-2", platform: { platform: 4, name: "PC" } },
  ],
  background_image_additional: "https://media.rawg.io/media/screenshots/221/221a03c11e5ff9f765d62f60d4b4cbf5.jpg",
  website: "http://www.thinkwithportals.com/",
  reactions: { "1": 10, "2": 4 },
  screenshots_count: 32,
  movies_count: 3,
  creators_count: 33,
  achievements_count: 51,
  parent_achievements_count: 2,
  reddit_url: "https://www.reddit.com/r/Portal/",
  alternative_names: ["Portal II"],
  metacritic_url: "https://www.metacritic.com/game/pc/portal-2",
  developers: [{ id: 3, name: "Valve Software", slug: "valve-software", games_count: 47 }],
  publishers: [
    { id: 4, name: "Valve", slug: "valve", games_count: 52 },
    { id: 354, name: "Electronic Arts", slug: "electronic-arts", games_count: 1300 },
  ],
  description_raw: "Portal 2 is a first-person puzzle game developed by Valve Corporation…",
};

/** Sent with HTTP 404 for an id RAWG does not have. */
export const RAWG_NOT_FOUND = { detail: "Not found." };
/** Sent with HTTP 401 when the key is missing or wrong. */
export const RAWG_NO_KEY = { error: "The key parameter is not provided" };

/** DuckDuckGo's answer to "blade runner site:imdb.com/title": title pages, sub-pages, a list page. */
export const DUCKDUCKGO_IMDB_BLADE_RUNNER = duckDuckGoPage(
  "blade runner site:imdb.com/title",
  duckDuckGoResult(
    "https://www.imdb.com/title/tt0083658/",
    "<b>Blade</b> <b>Runner</b> (1982) - IMDb",
    "www.imdb.com/title/tt0083658/",
    "<b>Blade</b> <b>Runner</b>: Directed by Ridley Scott. With Harrison Ford, Rutger Hauer, Sean Young. " +
      "A <b>blade</b> <b>runner</b> must pursue and terminate four replicants who stole a ship in space.",
  ) +
    duckDuckGoResult(
      "https://www.imdb.com/title/tt0083658/fullcredits/",
      "<b>Blade</b> <b>Runner</b> (1982) - Full cast &amp; crew - IMDb",
      "www.imdb.com/title/tt0083658/fullcredits/",
      "<b>Blade</b> <b>Runner</b> (1982) - Cast and crew credits, including actors, actresses, directors.",
    ) +
    duckDuckGoResult(
      "https://m.imdb.com/title/tt12373138/?ref_=nv_sr_srsg_3",
      "<b>Blade</b> <b>Runner</b>: Black Lotus (TV Series 2021&ndash;2022) - IMDb",
      "m.imdb.com/title/tt12373138/",
      "Los Angeles, 2032. A young woman wakes up with no memory, possessing deadly skills.",
    ) +
    duckDuckGoResult(
      "https://www.imdb.com/list/ls000034938/",
      "Best sci-fi films - IMDb",
      "www.imdb.com/list/ls000034938/",
      "A list of 100 titles including <b>Blade</b> <b>Runner</b>.",
    ) +
    duckDuckGoResult(
      "https://www.imdb.com/title/tt1856101/",
      "<b>Blade</b> <b>Runner</b> 2049 (2017) - IMDb",
      "www.imdb.com/title/tt1856101/",
      "Young <b>Blade</b> <b>Runner</b> K&#x27;s discovery of a long-buried secret leads him to track down " +
        "former <b>Blade</b> <b>Runner</b> Rick Deckard, who&#x27;s been missing for thirty years.",
    ),
);

/** DuckDuckGo's answer to "portal video game site:en.wikipedia.org". */
export const DUCKDUCKGO_WIKIPEDIA_PORTAL = duckDuckGoPage(
  "portal video game site:en.wikipedia.org",
  duckDuckGoResult(
    "https://en.wikipedia.org/wiki/Portal_2",
    "<b>Portal</b> 2 - Wikipedia",
    "en.wikipedia.org/wiki/Portal_2",
    "<b>Portal</b> 2 is a 2011 puzzle-platform <b>game</b> developed by Valve. It was released for Windows, " +
      "Mac OS X, Linux, PlayStation 3, and Xbox 360.",
  ) +
    duckDuckGoResult(
      "https://en.wikipedia.org/wiki/Portal_(video_game)",
      "<b>Portal</b> (<b>video</b> <b>game</b>) - Wikipedia",
      "en.wikipedia.org/wiki/Portal_(video_game)",
      "<b>Portal</b> is a 2007 puzzle-platform <b>game</b> developed and published by Valve. It was released " +
        "in a bundle, The Orange Box, for Windows, Xbox 360 and PlayStation 3.",
    ) +
    duckDuckGoResult(
      "https://en.wikipedia.org/wiki/Portal_(series)",
      "<b>Portal</b> (series) - Wikipedia",
      "en.wikipedia.org/wiki/Portal_(series)",
      "<b>Portal</b> is a series of first-person puzzle-platform <b>video</b> <b>games</b> developed by Valve.",
    ),
);
