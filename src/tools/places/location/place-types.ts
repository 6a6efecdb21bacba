/** An OpenStreetMap tag a place type stands for: `amenity=cafe`. */
export interface OsmTag {
  key: string;
  value: string;
}

const tag = (key: string, ...values: string[]): OsmTag[] => values.map((value) => ({ key, value }));

/** Google Places types (Table A names) and the OpenStreetMap tags that mean the same. */
const OSM_TAGS: Record<string, OsmTag[]> = {
  restaurant: tag("amenity", "restaurant"),
  cafe: tag("amenity", "cafe"),
  coffee_shop: tag("amenity", "cafe"),
  bar: tag("amenity", "bar", "pub"),
  fast_food_restaurant: tag("amenity", "fast_food"),
  meal_takeaway: tag("amenity", "fast_food"),
  ice_cream_shop: tag("amenity", "ice_cream"),
  bakery: tag("shop", "bakery"),
  supermarket: tag("shop", "supermarket"),
  grocery_store: tag("shop", "supermarket", "convenience", "greengrocer"),
  convenience_store: tag("shop", "convenience"),
  pharmacy: tag("amenity", "pharmacy"),
  drugstore: [...tag("amenity", "pharmacy"), ...tag("shop", "chemist")],
  hospital: tag("amenity", "hospital"),
  doctor: tag("amenity", "doctors", "clinic"),
  dentist: tag("amenity", "dentist"),
  veterinary_care: tag("amenity", "veterinary"),
  atm: tag("amenity", "atm"),
  bank: tag("amenity", "bank"),
  post_office: tag("amenity", "post_office"),
  police: tag("amenity", "police"),
  library: tag("amenity", "library"),
  school: tag("amenity", "school"),
  lodging: tag("tourism", "hotel", "motel", "guest_house", "hostel"),
  hotel: tag("tourism", "hotel"),
  hostel: tag("tourism", "hostel"),
  gas_station: tag("amenity", "fuel"),
  electric_vehicle_charging_station: tag("amenity", "charging_station"),
  parking: tag("amenity", "parking"),
  car_rental: tag("amenity", "car_rental"),
  car_repair: tag("shop", "car_repair"),
  train_station: tag("railway", "station"),
  bus_station: tag("amenity", "bus_station"),
  bus_stop: tag("highway", "bus_stop"),
  airport: tag("aeroway", "aerodrome"),
  public_bathroom: tag("amenity", "toilets"),
  park: tag("leisure", "park"),
  playground: tag("leisure", "playground"),
  gym: tag("leisure", "fitness_centre"),
  swimming_pool: tag("leisure", "swimming_pool"),
  movie_theater: tag("amenity", "cinema"),
  museum: tag("tourism", "museum"),
  tourist_attraction: tag("tourism", "attraction"),
  church: tag("amenity", "place_of_worship"),
  place_of_worship: tag("amenity", "place_of_worship"),
  shopping_mall: tag("shop", "mall"),
  clothing_store: tag("shop", "clothes"),
  book_store: tag("shop", "books"),
  hardware_store: tag("shop", "hardware", "doityourself"),
  bicycle_store: tag("shop", "bicycle"),
  electronics_store: tag("shop", "electronics"),
  hair_salon: tag("shop", "hairdresser"),
  laundry: tag("shop", "laundry", "dry_cleaning"),
};

/** Everyday and OpenStreetMap words for the types above. */
const ALIASES: Record<string, string> = {
  fuel: "gas_station",
  petrol_station: "gas_station",
  gas: "gas_station",
  charging_station: "electric_vehicle_charging_station",
  pub: "bar",
  fast_food: "fast_food_restaurant",
  coffee: "cafe",
  grocery: "grocery_store",
  doctors: "doctor",
  clinic: "doctor",
  chemist: "drugstore",
  toilets: "public_bathroom",
  toilet: "public_bathroom",
  cinema: "movie_theater",
  station: "train_station",
  railway_station: "train_station",
  fitness_centre: "gym",
  guest_house: "lodging",
  motel: "lodging",
  mall: "shopping_mall",
  hairdresser: "hair_salon",
  veterinary: "veterinary_care",
};

/** The Google type a word stands for: "Fuel" → "gas_station", "coffee shop" → "coffee_shop". */
export function canonicalPlaceType(type: string): string {
  const word = type
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  return ALIASES[word] ?? word;
}

/** The OpenStreetMap tags of a (canonical) type; undefined for a type without a mapping. */
export function osmTagsFor(type: string): OsmTag[] | undefined {
  return OSM_TAGS[type];
}

export const MAPPED_PLACE_TYPES = Object.keys(OSM_TAGS);
