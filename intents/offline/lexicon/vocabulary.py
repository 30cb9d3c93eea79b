"""Feature words, the words() helper, function words, ordinals and everyday words."""

from __future__ import annotations

# Canonical names of the tools the entity extractor knows; all of them collapse to one
# feature word, because which tool is named says little about what the user wants done.
SOURCE_WORD = "__source__"
CHAT_WORD = "__chat__"
AGENT_WORD = "__agent__"


def words(text: str) -> frozenset[str]:
    """A set of words written as one space-separated string, for readable word lists."""
    return frozenset(text.split())


# Function words: no feature of their own (they correlate with sentence length, not intent).
STOPWORDS: frozenset[str] = words(
    "a an the to of for in on at by with from and or but is are was be been i me we us you "
    "your this that these those so just please can could would will shall should may might "
    "el la los las un una de del en y o que por para le les des du et ou un une der die "
    "das den dem ein eine und oder mit fur von zu o a os as um uma do da dos das e ou com "
    "para"
)

# Ordinal words to 1-based positions ("last" is -1).
ORDINALS: dict[str, int] = {
    "first": 1, "1st": 1, "one": 1, "primero": 1, "primera": 1, "primer": 1, "premier": 1,
    "premiere": 1, "erste": 1, "ersten": 1, "erster": 1, "erstes": 1, "primeiro": 1, "primeira": 1,
    "uno": 1, "un": 1, "eins": 1, "um": 1, "second": 2, "2nd": 2, "two": 2, "segundo": 2,
    "segunda": 2, "deuxieme": 2, "seconde": 2, "zweite": 2, "zweiten": 2, "zweiter": 2, "dos": 2,
    "deux": 2, "zwei": 2, "dois": 2, "duas": 2, "third": 3, "3rd": 3, "three": 3, "tercero": 3,
    "tercera": 3, "tercer": 3, "troisieme": 3, "dritte": 3, "dritten": 3, "dritter": 3,
    "terceiro": 3, "terceira": 3, "tres": 3, "trois": 3, "drei": 3, "fourth": 4, "4th": 4,
    "four": 4, "cuarto": 4, "cuarta": 4, "quatrieme": 4, "vierte": 4, "vierten": 4, "quarto": 4,
    "quarta": 4, "cuatro": 4, "quatre": 4, "vier": 4, "quatro": 4, "fifth": 5, "5th": 5, "five": 5,
    "quinto": 5, "quinta": 5, "cinquieme": 5, "funfte": 5, "cinco": 5, "cinq": 5, "funf": 5,
    "sixth": 6, "6th": 6, "six": 6, "seventh": 7, "7th": 7, "seven": 7, "last": -1, "latter": -1,
    "ultimo": -1, "ultima": -1, "dernier": -1, "derniere": -1, "letzte": -1, "letzten": -1,
    "letzter": -1, "former": 1, "erstere": 1, "ersteres": 1, "letztere": -1, "letzteres": -1,
}  # fmt: skip

# Ordinary words that must never be "corrected" into a lexicon word ("play" is not "pay",
# "some" is not "same"): the typo corrector only touches words outside this list, the
# lexicon and the training vocabulary.
COMMON_WORDS: frozenset[str] = words(
    """
    about above across act action actually add after afternoon again against ago agree ahead
    air all almost alone along already also although always am among amount and another answer
    any anybody anyone anything anyway anywhere apart appear apply area around arrive art as ask
    asked asking at away baby back bad bag ball bank bar base basic be bear beat beautiful became
    because become bed been before began begin behind being believe below best better between big
    bird bit black blood blue board boat body book born both bottom box boy break bring brother
    brought build building built business busy but buy by call called calls came can car card
    care carry case catch caught cause center certain chair chance change character cheap check
    child children choice choose church city class clean clear close cold come comes coming
    common company complete could count country couple course cover create cross cup current cut
    dark daughter dead deal dear decide deep degree desk detail did die different difficult
    dinner direction do doctor does doing done door double down draw dream dress drink drive
    drop during each early earth easy eat edge effect eight either else end enjoy enough enter
    entire even evening event ever every everybody everyone everything everywhere exact example
    except expect experience explain eye face fact fair fall family far farm fast father fear
    feel feeling feet fell felt few field fight figure fill final finally find fine finger finish
    fire first fish five floor fly follow food foot for force forget form forward found four
    free friend from front full fun game garden gave general get gets getting girl give given
    glad glass go goes going gone good got great green ground group grow guess guy had hair
    half hand happen happened happy hard has hat have having he head hear heard heart heavy held
    hello help her here herself high him himself his history hit hold hole home hope horse hot
    hour house how however huge human hundred idea if imagine important in inside instead
    interest into is issue it its itself job join just keep kept kid kind king knew know known
    land language large last late later laugh lay lead learn least leave left leg less let
    letter level lie life light like likely line list listen little live long look looked
    looking lose lost lot loud love low made main make man many mark market matter may maybe me
    mean measure meet meeting member men middle might mind minute miss moment money month
    more most mother mountain move much music must my myself name near nearly need needs never
    new next nice night nine no nobody none nor normal north not note nothing notice now number
    of off offer office often oh old on once one only open or order other others our out over
    own page paper part party pass past pay people perhaps period person pick picture piece
    place plan plant play please plus point police poor position possible power practice prepare
    present pretty probably problem process produce program provide public pull put question
    quick quickly quiet quite race rain raise ran rather reach read ready real really reason
    receive record red remember rest result return rich ride right ring rise river road rock
    room round rule run safe said same sat save saw say school sea season seat second see seem
    seen sell send sense sent serve set seven several shall shape share she ship shop short
    should shoulder show side sign simple since sing single sister sit six size sleep slow small
    smile snow so soft some somebody someone something sometimes somewhere son song soon sorry
    sort sound south space speak special spend spent stand star start state stay step still stop
    store story street strong student study stuff such suddenly summer sun supposed sure surprise
    table take taken talk tall teacher team tell ten than thank that the their them themselves
    then there these they thing things think third this those though thought thousand three
    through throw thus time tiny to today together told tomorrow too took top total touch toward
    town track trade train travel tree tried trip trouble true truth try trying turn two type
    under understand until up upon us use used useful usual usually very visit voice wait walk
    wall want war warm was watch water way we wear weather week weight well went were west what
    whatever wheel when where whether which while white who whole whom whose why wide wife will
    win wind window winter wish with within without woman women wonder wonderful word words
    work world worry would write wrong yard yeah year yes yet you young your yourself
    jazz guitar piano movie weekend vacation holiday beach mom dad wife husband kid kids cook
    lunch dinner breakfast sushi pasta burger coffee tea beer wine thing stuff okay sure
    anything everything nothing something someone anyone everyone somewhere anywhere
    favorite favourite funny silly crazy weird strange cute lovely pretty ugly huge tiny
    doing going being having making taking getting giving coming looking thinking trying
    thats its wont isnt arent wasnt werent hasnt havent couldnt shouldnt wouldnt im ive
    youre theyre weve theres heres hes shes problem issue
    noise liability timeline screen sale value scope react gain glance corner cheer crate
    spare sharp shed onto location maintenance metric reliable timer coast chest refine crack
    rant dial impossible entrant creamy choke spot swap ditch drift click limit document
    process own outdated star seem stay sign paste fall brand sort
    quieres estan diese dieses gente parte monde deine keiner unserem tenga pueda quedan
    konnten possa podem posible possivel receba quelques donner parce passe reste vieja
    notas nueve conte cuento comite kosten hojas produto produit funciona funcionam
    fonctionne forme frist tard ende wien trier listo gehts copiando scare unchanged bright
    booking rope anymore alte agence patel plaid liest sens conge hazlo
    """
)
