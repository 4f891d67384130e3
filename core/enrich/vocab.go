package enrich

// The vocabularies. Each maps a canonical value to the phrases that express it; matching
// is on whole folded words (see match.go). They are deliberately small: a word that is
// ambiguous in ordinary product copy ("man" in "Iron Man", "fall" the verb, "lace" the
// fabric versus "lace-up", "down" the adverb) is either left out or only matched inside
// an unambiguous phrase. RULES.md lists them with the reasons.

// colorFamilies maps a color word (English, French, German, Spanish, Italian) to its
// family. The family of a label is the family of its last color word ("navy blue" ->
// blue, "rose gold" -> gold); two different families make "multicolor".
var colorFamilies = newVocab(map[string][]string{
	"black":      {"noir", "noire", "schwarz", "negro", "negra", "nero", "nera", "jet black", "onyx", "ebony"},
	"white":      {"blanc", "blanche", "weiss", "blanco", "blanca", "bianco", "bianca", "ivory", "off white", "snow white", "alabaster"},
	"grey":       {"gray", "gris", "grise", "grau", "grigio", "charcoal", "slate", "graphite", "gunmetal", "heather grey", "heather gray", "anthracite", "anthrazit"},
	"blue":       {"navy", "bleu", "bleue", "blau", "azul", "blu", "cobalt", "azure", "indigo", "teal", "turquoise", "aqua", "cyan", "bleu marine", "marine blue", "royal blue", "sky blue", "petrol"},
	"red":        {"rouge", "rojo", "roja", "rosso", "rossa", "burgundy", "maroon", "crimson", "scarlet", "bordeaux", "oxblood", "cranberry", "wine red"},
	"green":      {"vert", "verte", "grun", "gruen", "verde", "olive", "sage", "mint", "emerald", "lime", "jade", "moss", "forest green", "khaki green", "army green"},
	"yellow":     {"jaune", "gelb", "amarillo", "amarilla", "giallo", "gialla", "mustard", "canary", "ochre", "ocher"},
	"orange":     {"naranja", "arancione", "rust", "tangerine", "coral", "terracotta", "burnt orange"},
	"pink":       {"rosa", "rose", "fuchsia", "magenta", "blush", "hot pink", "dusty rose", "rosado"},
	"purple":     {"violet", "violett", "lila", "lilac", "lavender", "plum", "mauve", "aubergine", "morado", "morada", "violeta", "viola"},
	"brown":      {"marron", "braun", "tan", "camel", "chocolate", "cognac", "chestnut", "taupe", "brun", "mocha brown"},
	"beige":      {"cream", "ecru", "sand", "khaki", "nude", "creme", "crema", "stone beige"},
	"gold":       {"golden", "dore", "doree", "rose gold", "yellow gold", "gold tone"},
	"silver":     {"argent", "argente", "silber", "chrome", "silver tone"},
	"multicolor": {"multicolour", "multicolored", "multicoloured", "multi color", "multi colour", "multi", "rainbow", "multicolore"},
})

// materials maps a canonical material to its phrases. Leather, suede and fur preceded by
// faux, vegan, PU, imitation, synthetic... become "faux leather", "faux suede", "faux fur".
var materials = newVocab(map[string][]string{
	"cotton":          {"organic cotton", "pima cotton", "supima cotton", "egyptian cotton", "coton", "baumwolle", "algodon", "cotone"},
	"leather":         {"full grain leather", "top grain leather", "genuine leather", "patent leather", "cuir", "leder", "cuero", "nappa", "calfskin", "cowhide", "lambskin"},
	"suede":           {"daim", "wildleder"},
	"nubuck":          {},
	"wool":            {"lambswool", "virgin wool", "laine", "wolle", "boiled wool"},
	"merino wool":     {"merino", "merino wool"},
	"cashmere":        {"cachemire", "kaschmir"},
	"alpaca":          {},
	"mohair":          {},
	"polyester":       {"recycled polyester"},
	"nylon":           {"polyamide", "recycled nylon"},
	"elastane":        {"spandex", "lycra"},
	"denim":           {},
	"linen":           {"leinen", "flax"},
	"silk":            {"soie", "seide", "mulberry silk"},
	"down":            {"goose down", "duck down", "down fill", "down filled", "fill down", "down insulation", "down insulated", "down feather", "down jacket", "down vest", "down parka"},
	"gore-tex":        {"goretex", "gore tex"},
	"fleece":          {"polar fleece"},
	"canvas":          {},
	"rubber":          {"natural rubber"},
	"stainless steel": {"stainless"},
	"steel":           {"carbon steel"},
	"cast iron":       {},
	"aluminum":        {"aluminium"},
	"titanium":        {},
	"copper":          {},
	"brass":           {},
	"glass":           {"borosilicate glass", "borosilicate"},
	"ceramic":         {"ceramics"},
	"porcelain":       {},
	"stoneware":       {},
	"bamboo":          {},
	"wood":            {"wooden", "solid wood", "hardwood", "oak", "walnut", "acacia", "teak", "beech", "mango wood", "pine wood"},
	"plastic":         {"polypropylene", "polyethylene", "tritan"},
	"silicone":        {},
	"acrylic":         {},
	"viscose":         {"rayon", "modal", "lyocell", "tencel"},
	"hemp":            {},
	"jute":            {},
	"sterling silver": {"925 silver", "925 sterling silver"},
	"gold":            {"solid gold", "10k gold", "14k gold", "18k gold", "22k gold", "24k gold", "9k gold"},
	"gold plated":     {"gold plating", "gold vermeil", "vermeil", "gold filled"},
	"marble":          {},
	"concrete":        {},
	"cork":            {},
	"neoprene":        {},
	"polyurethane":    {},
	"velvet":          {},
	"corduroy":        {},
	"satin":           {},
	"chiffon":         {},
	"tweed":           {},
	"fur":             {},
	"shearling":       {},
	"sherpa":          {},
	"faux leather":    {"pleather", "leatherette", "vegan leather", "pu leather", "faux leather", "synthetic leather", "imitation leather"},
	"faux fur":        {"faux fur"},
	"faux suede":      {"faux suede", "microsuede"},
})

// fauxModifiers turn leather, suede and fur into their imitation.
var fauxModifiers = set("faux", "vegan", "pu", "imitation", "fake", "artificial", "synthetic", "simulated", "vegetarian", "bonded", "recycled")

var fauxOf = map[string]string{"leather": "faux leather", "suede": "faux suede", "fur": "faux fur"}

var patterns = newVocab(map[string][]string{
	"striped":      {"stripe", "stripes", "stripy", "pinstripe", "pinstriped", "breton stripe", "rayure", "rayures", "gestreift"},
	"plaid":        {"tartan", "flannel plaid", "buffalo plaid", "buffalo check"},
	"checked":      {"checkered", "chequered", "gingham", "check pattern", "carreaux", "kariert"},
	"houndstooth":  {"dogtooth"},
	"polka dot":    {"polka dots", "polka dotted", "pois"},
	"floral":       {"flower print", "floral print", "fleuri", "fleurie", "geblumt"},
	"paisley":      {},
	"camouflage":   {"camo"},
	"animal print": {"leopard", "leopard print", "zebra print", "snake print", "snakeskin print", "tiger print", "cheetah print", "cow print"},
	"herringbone":  {},
	"geometric":    {"geometric print"},
	"tie-dye":      {"tie dye", "tie dyed"},
	"argyle":       {},
	"chevron":      {},
	"color block":  {"colorblock", "colourblock", "colour block", "color blocked", "colour blocked"},
	"graphic":      {"graphic print", "graphic tee"},
	"solid":        {"solid color", "solid colour", "solid colored", "solid coloured"},
	"abstract":     {"abstract print"},
})

// closures is matched only on apparel, shoes and bags (or when the category is unknown):
// "button" and "snap" mean something else on a kettle.
var closures = newVocab(map[string][]string{
	"zip":           {"zipper", "zippered", "zipped", "full zip", "half zip", "quarter zip", "zip up", "zip fastening", "zip closure", "ykk zip", "zips"},
	"lace-up":       {"lace up", "laces", "laced", "lacing", "lace up closure"},
	"buckle":        {"buckles", "buckled", "buckle closure"},
	"hook-and-loop": {"hook and loop", "hook & loop", "velcro"},
	"slip-on":       {"slip on", "pull on", "pull-on", "laceless"},
	"button":        {"buttons", "button down", "button up", "buttoned", "button fastening", "button closure", "button fly"},
	"snap":          {"snaps", "snap button", "snap buttons", "press stud", "press studs", "snap closure", "popper", "poppers"},
	"drawstring":    {"drawcord", "draw cord"},
	"magnetic":      {"magnetic closure", "magnetic clasp", "magnetic snap"},
	"toggle":        {"toggle closure"},
	"clasp":         {"lobster clasp", "spring ring clasp", "clasp closure"},
})

var seasons = newVocab(map[string][]string{
	"spring":     {"printemps", "fruhling", "fruehling", "primavera"},
	"summer":     {"summertime", "ete", "sommer", "verano", "estate"},
	"autumn":     {"automne", "herbst", "otono", "autunno"},
	"winter":     {"wintertime", "hiver", "invierno", "inverno"},
	"all-season": {"all season", "all seasons", "year round", "all year round", "four season", "4 season", "all weather"},
})

// seasonFall is "fall" the season, accepted only in tags, titles, product types,
// breadcrumbs and properties, or in the phrases listed here anywhere.
var seasonFallPhrases = newVocab(map[string][]string{
	"autumn": {"fall winter", "fall season", "this fall", "for fall", "fall collection", "fall 2024", "fall 2025", "fall 2026", "fall/winter"},
})

var styles = newVocab(map[string][]string{
	"casual":       {"everyday casual", "smart casual"},
	"formal":       {"formalwear", "formal wear"},
	"classic":      {"timeless"},
	"vintage":      {"vintage inspired", "vintage style"},
	"retro":        {},
	"modern":       {},
	"minimalist":   {"minimal", "minimalistic"},
	"bohemian":     {"boho", "boho chic"},
	"streetwear":   {"street style"},
	"sporty":       {"athleisure"},
	"preppy":       {},
	"elegant":      {},
	"rustic":       {},
	"industrial":   {},
	"scandinavian": {"scandi", "nordic"},
	"mid-century":  {"mid century", "mid century modern", "midcentury"},
	"contemporary": {},
	"traditional":  {},
	"farmhouse":    {},
	"glam":         {"glamorous"},
	"oversized":    {"oversize"},
	"slim fit":     {"slim-fit", "skinny fit"},
	"relaxed fit":  {"relaxed-fit", "loose fit"},
	"regular fit":  {"regular-fit", "classic fit"},
	"cropped":      {},
})

var occasions = newVocab(map[string][]string{
	"wedding":        {"weddings", "bridal", "wedding guest"},
	"party":          {"parties", "partywear", "party wear"},
	"work":           {"for work", "at work", "to work", "workwear", "office wear", "for the office"},
	"travel":         {"traveling", "travelling", "travel friendly", "on the go"},
	"beach":          {"beachwear", "poolside"},
	"vacation":       {"vacations"},
	"gym":            {"workout", "workouts", "gym wear", "fitness"},
	"running":        {"run club"},
	"hiking":         {"hike", "hikes", "trekking"},
	"camping":        {"camp", "campsite"},
	"yoga":           {"pilates"},
	"everyday":       {"every day", "daily wear", "everyday wear", "everyday carry"},
	"lounge":         {"lounging", "loungewear"},
	"sleep":          {"sleeping", "bedtime"},
	"evening":        {"evening wear", "night out", "eveningwear"},
	"business":       {"business casual"},
	"christmas":      {"xmas", "noel", "weihnachten", "navidad"},
	"halloween":      {},
	"birthday":       {"birthdays"},
	"valentines-day": {"valentine", "valentines", "valentine day", "valentines day"},
	"graduation":     {},
	"prom":           {},
	"date-night":     {"date night"},
})

// claims become additional_attributes {name: claim, value: the store's words}.
var claims = newVocab(map[string][]string{
	"waterproof":       {"water proof", "wasserdicht", "impermeable"},
	"water-resistant":  {"water resistant", "water repellent", "water repellant", "showerproof", "dwr"},
	"windproof":        {"wind proof", "windresistant", "wind resistant"},
	"breathable":       {},
	"insulated":        {"vacuum insulated", "double wall insulated", "thermally insulated"},
	"dishwasher-safe":  {"dishwasher safe"},
	"machine-washable": {"machine washable"},
	"bpa-free":         {"bpa free"},
	"organic":          {"certified organic", "usda organic"},
	"recycled":         {"recycled materials"},
	"vegan":            {},
	"handmade":         {"hand made", "handcrafted", "hand crafted"},
	"cruelty-free":     {"cruelty free"},
	"gluten-free":      {"gluten free"},
	"non-slip":         {"non slip", "anti slip", "slip resistant"},
	"uv-protection":    {"upf 50", "upf 50+", "uv protection"},
	"leak-proof":       {"leak proof", "leakproof"},
})

var genders = newVocab(map[string][]string{
	"male":   {"men", "mens", "male", "gents", "gentlemen", "homme", "hommes", "herren", "hombre", "hombres", "uomo", "boys", "boy"},
	"female": {"women", "womens", "woman", "female", "ladies", "lady", "femme", "femmes", "damen", "mujer", "mujeres", "donna", "girls", "girl"},
	"unisex": {"gender neutral", "genderless", "all genders"},
})

var ageGroups = newVocab(map[string][]string{
	"adult":   {"adults", "grown up", "grown ups", "men", "mens", "women", "womens", "ladies", "gents", "homme", "femme", "herren", "damen"},
	"kids":    {"kid", "child", "children", "childrens", "youth", "junior", "juniors", "boys", "boy", "girls", "girl", "enfant", "enfants", "kinder", "ninos", "ninas", "bambini"},
	"toddler": {"toddlers"},
	"infant":  {"infants", "baby", "babies", "newborn", "newborns", "bebe", "bebes"},
})

// View words for image tags.
var views = newVocab(map[string][]string{
	"front":     {"frontal", "vorne"},
	"back":      {"rear", "backside"},
	"side":      {"profile", "lateral"},
	"top":       {"overhead", "top down", "birds eye"},
	"bottom":    {"underside", "sole"},
	"detail":    {"details", "close up", "closeup", "zoom", "macro"},
	"lifestyle": {"in use", "in situ", "scene", "styled"},
	"model":     {"on model", "worn", "on body", "modeled", "modelled"},
	"swatch":    {"swatches", "color swatch", "colour swatch"},
	"flat-lay":  {"flat lay", "flatlay", "laydown"},
	"packaging": {"package", "box", "packshot"},
	"interior":  {"inside", "inner"},
})

// placeholders are product types that say nothing (platform defaults).
var placeholders = set("normal", "default", "simple", "variable", "product", "products",
	"all", "none", "n a", "na", "null", "other", "others", "misc", "general", "item", "items",
	"uncategorized", "uncategorised", "default category")

// navigation crumbs that are not categories.
var navCrumbs = set("home", "shop", "store", "all", "all products", "products", "catalog",
	"catalogue", "collections", "collection", "accueil", "startseite", "inicio", "new",
	"new arrivals", "sale", "search", "results")
