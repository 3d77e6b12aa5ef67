/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.search;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Deterministic memory-like texts and questions: one sentence each (so the engine's rule-based views
 * add no gist or question view and every entry has exactly one vector), composed from word lists with
 * a seeded {@link Random}. Words are drawn with a skew toward the front of each list, so some terms
 * are common and most are rare, as in real notes; posting lists get a realistic spread of lengths.
 */
final class Corpus {
  private static final String[] NAMES = split("""
      Maria James Aisha Chen Lucas Priya Omar Sofia Daniel Yuki Fatima Noah Elena Kwame Hannah Mateo Leila
      Ethan Ana Tom Grace Ravi Olivia Samuel Ines Jonas Mei Carlos Zara Felix Nadia Hugo Amara Leo Clara Ivan
      Rosa Kenji Maya Diego Ingrid Arjun Lina Oscar Freya Tariq Julia Marco Anika Paul Selin Victor Chloe Emeka
      Sara Liam Keiko Pablo Nora Dmitri Alma Bruno Esther Kofi Lucia Henrik Sana Jorge Vera Malik Eva Theo
      Rania Finn Greta Ali Camila Otto Hiro Bea Nikolai Luz Sven Imani Rafael Mila Tobias Dalia Emil Ayumi""");
  private static final String[] RELATIONS = split("""
      sister brother mother father daughter son wife husband partner friend cousin neighbor manager colleague
      roommate aunt uncle grandmother grandfather niece nephew boss mentor teammate landlord dentist""");
  private static final String[] SAID = split("""
      mentioned said explained noted admitted complained told-us remembered joked confirmed wrote""");
  private static final String[] BOUGHT = split("""
      bought found ordered borrowed sold fixed painted lost returned built rented repaired gifted picked-up
      reserved cooked baked photographed planted adopted booked tried replaced cleaned assembled packed""");
  private static final String[] ADJECTIVES = split("""
      new old small large vintage cheap expensive red blue green wooden electric second-hand handmade quiet
      heavy tiny folding spicy organic local broken shiny cozy portable leather ceramic bright striped antique
      waterproof rusty fancy simple modern classic huge light secondhand colorful sturdy fragile homemade""");
  private static final String[] THINGS = split("""
      bicycle laptop sofa guitar camera kayak tent piano car desk lamp jacket backpack phone oven blender
      painting rug bookshelf telescope scooter drone violin printer mattress kettle watch necklace bracelet
      aquarium puzzle notebook tablet microwave toaster suitcase umbrella helmet skateboard surfboard sweater
      boots sneakers headphones speaker projector sewing-machine typewriter chessboard bonsai cactus fern
      orchid quilt cookbook novel record-player espresso-machine treadmill hammock barbecue canoe sailboat
      motorcycle trailer snowboard easel microscope wheelbarrow lawnmower dishwasher fridge heater fan""");
  private static final String[] PETS = split("""
      dog cat puppy kitten rabbit parrot hamster turtle goldfish horse pony ferret lizard canary tortoise""");
  private static final String[] PET_NAMES = split("""
      Biscuit Luna Max Pepper Milo Daisy Rocky Coco Oreo Ziggy Maple Nala Simba Pickle Tofu Olive Mochi
      Ginger Bruno Willow Pretzel Bean Clover Noodle Hazel Sunny Kiwi Peanut Juniper Waffles""");
  private static final String[] PLACES = split("""
      market mall bakery library garage museum park beach harbor station airport gym cafe bookstore
      flea-market hardware-store thrift-shop farm vineyard stadium theater gallery pharmacy clinic school
      university office studio warehouse bazaar pier campsite ski-resort lake-house cabin diner pub""");
  private static final String[] CITIES = split("""
      Lisbon Denver Osaka Nairobi Toronto Berlin Austin Seoul Lima Oslo Dublin Cairo Hanoi Porto Boston
      Chicago Madrid Prague Vienna Sydney Auckland Mumbai Lagos Accra Quito Bogota Havana Reykjavik Helsinki
      Krakow Seville Naples Kyoto Busan Tbilisi Tunis Dakar Montreal Vancouver Portland Phoenix Atlanta
      Glasgow Bristol Leeds Lyon Marseille Munich Zurich Geneva Milan Turin Florence Athens Istanbul""");
  private static final String[] TIMES = split("""
      yesterday last-week last-weekend last-month last-year this-morning on-Monday on-Friday in-March in-June
      in-September in-December two-days-ago over-the-holidays during-the-summer after-work before-lunch
      on-Sunday-evening three-weeks-ago in-the-spring""");
  private static final String[] FUTURE = split("""
      next-week next-month next-summer in-October in-April after-the-wedding before-the-holidays this-weekend
      next-spring in-two-weeks on-her-birthday on-his-birthday for-the-anniversary later-this-year""");
  private static final String[] ACTIVITIES = split("""
      running hiking cooking painting swimming cycling reading gardening yoga climbing photography knitting
      baking dancing fishing surfing skiing chess pottery camping woodworking singing journaling sailing
      birdwatching meditation tennis football basketball volleyball boxing rowing archery calligraphy""");
  private static final String[] FOODS = split("""
      coffee tea sushi pizza pasta curry tacos ramen salad soup oatmeal chocolate cheese bread dumplings
      pancakes noodles falafel kimchi hummus steak risotto paella burritos smoothies croissants lasagna""");
  private static final String[] JOBS = split("""
      nurse teacher engineer designer accountant chef lawyer pharmacist architect librarian electrician
      plumber journalist photographer translator programmer data-analyst veterinarian mechanic pilot
      firefighter barista carpenter researcher dentist paramedic therapist economist biologist tailor""");
  private static final String[] ORGS = split("""
      hospital school startup bank bakery hotel newspaper airline factory lab agency clinic restaurant
      museum nonprofit university studio shipyard brewery winery radio-station bookshop""");
  private static final String[] FEELINGS = split("""
      excited nervous happy worried proud tired relieved curious frustrated grateful anxious thrilled""");
  private static final String[] EVENTS = split("""
      wedding concert marathon conference reunion festival exam interview recital birthday-party graduation
      job-fair book-club-meeting hackathon tournament vacation road-trip surgery move housewarming""");

  private final Random random;

  Corpus(long seed) {
    this.random = new Random(seed);
  }

  private static String[] split(String words) {
    String[] w = words.strip().split("\\s+");
    for (int i = 0; i < w.length; i++) {
      w[i] = w[i].replace('-', ' ');
    }
    return w;
  }

  /** An index into a list of {@code n}, skewed toward the front (about a quarter of draws land in the first 6%). */
  private int skewed(int n) {
    double u = random.nextDouble();
    return Math.min(n - 1, (int) (n * u * u));
  }

  private String pick(String[] words) {
    return words[skewed(words.length)];
  }

  private String any(String[] words) {
    return words[random.nextInt(words.length)];
  }

  private String pronoun() {
    return random.nextBoolean() ? "she" : "he";
  }

  private String poss() {
    return random.nextBoolean() ? "her" : "his";
  }

  private static String article(String next) {
    return "aeiou".indexOf(Character.toLowerCase(next.charAt(0))) >= 0 ? "an" : "a";
  }

  /** One memory-like sentence. */
  String text() {
    String name = pick(NAMES);
    return switch (random.nextInt(9)) {
      case 0 -> {
        String adj = pick(ADJECTIVES);
        yield name + " " + pick(SAID) + " that " + pronoun() + " " + pick(BOUGHT) + " " + article(adj) + " " + adj
            + " " + pick(THINGS) + " at the " + pick(PLACES) + " in " + pick(CITIES) + " " + pick(TIMES) + ".";
      }
      case 1 -> name + "'s " + pick(RELATIONS) + " moved to " + pick(CITIES) + " " + pick(TIMES)
          + " and now works as " + article(pick(JOBS)) + " " + pick(JOBS) + " at a " + pick(ORGS) + ".";
      case 2 -> name + " has a " + pick(PETS) + " named " + any(PET_NAMES) + " who loves the " + pick(PLACES)
          + " and hates " + pick(ACTIVITIES) + ", according to " + poss() + " " + pick(RELATIONS) + ".";
      case 3 -> name + " is planning a trip to " + pick(CITIES) + " " + pick(FUTURE) + " with " + poss() + " "
          + pick(RELATIONS) + " to go " + pick(ACTIVITIES) + " and try the local " + pick(FOODS) + ".";
      case 4 -> name + " prefers " + pick(FOODS) + " over " + pick(FOODS) + " for breakfast, takes up "
          + pick(ACTIVITIES) + " on weekends, and is allergic to " + pick(FOODS) + ".";
      case 5 -> name + " felt " + pick(FEELINGS) + " about the " + pick(EVENTS) + " in " + pick(CITIES) + " "
          + pick(TIMES) + " because " + poss() + " " + pick(RELATIONS) + " could not come.";
      case 6 -> name + " works as " + article(pick(JOBS)) + " " + pick(JOBS) + " at a " + pick(ORGS) + " in "
          + pick(CITIES) + " and has been learning " + pick(ACTIVITIES) + " since " + pick(TIMES) + ".";
      case 7 -> {
        String adj = pick(ADJECTIVES);
        yield "On " + pick(TIMES) + " " + name + " " + pick(BOUGHT) + " " + article(adj) + " " + adj + " "
            + pick(THINGS) + " for " + poss() + " " + pick(RELATIONS) + "'s " + pick(EVENTS) + ".";
      }
      default -> name + " wants to stop " + pick(ACTIVITIES) + " after hurting " + poss() + " knee, and "
          + pick(SAID) + " that " + poss() + " " + pick(RELATIONS) + " recommended " + pick(ACTIVITIES) + " instead.";
    };
  }

  /** A question of the kind an agent asks its memory. */
  String question() {
    String name = pick(NAMES);
    return switch (random.nextInt(10)) {
      case 0 -> "What did " + name + " buy at the " + pick(PLACES) + "?";
      case 1 -> "Where does " + name + "'s " + pick(RELATIONS) + " work now?";
      case 2 -> "What is the name of " + name + "'s " + pick(PETS) + "?";
      case 3 -> "When is " + name + " going to " + pick(CITIES) + "?";
      case 4 -> "What does " + name + " like to eat for breakfast, " + pick(FOODS) + " or " + pick(FOODS) + "?";
      case 5 -> "How did " + name + " feel about the " + pick(EVENTS) + "?";
      case 6 -> "Which " + pick(ADJECTIVES) + " " + pick(THINGS) + " did someone get for a " + pick(EVENTS) + "?";
      case 7 -> "Who recommended " + pick(ACTIVITIES) + " to " + name + " after the knee injury?";
      case 8 -> "Is " + name + " allergic to " + pick(FOODS) + "?";
      default -> "Who works as " + article(pick(JOBS)) + " " + pick(JOBS) + " in " + pick(CITIES) + "?";
    };
  }

  /** {@code n} distinct texts. */
  List<String> texts(int n) {
    return distinct(n, this::text, Set.of());
  }

  /** {@code n} distinct questions, none of them in {@code avoid}. */
  List<String> questions(int n, Set<String> avoid) {
    return distinct(n, this::question, avoid);
  }

  private static List<String> distinct(int n, java.util.function.Supplier<String> next, Set<String> avoid) {
    Set<String> out = new LinkedHashSet<>(n * 2);
    int attempts = 0;
    while (out.size() < n) {
      if (++attempts > n * 50) {
        throw new IllegalStateException("could not generate " + n + " distinct texts");
      }
      String s = next.get();
      if (!avoid.contains(s)) {
        out.add(s);
      }
    }
    return new ArrayList<>(out);
  }
}
