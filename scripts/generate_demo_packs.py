"""Regenerate the demo packs' catalog and binary KB documents (deterministic).

    .venv/bin/pip install fpdf2 && .venv/bin/python scripts/generate_demo_packs.py

The outputs are committed; nothing at test or run time needs this script or fpdf2.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOP = ROOT / "packs" / "demo-shop"

# (brand, model, base price KES, storages with price deltas, colours)
PHONES = [
    ("Samsung", "Galaxy A05", 13500, ["64GB", "128GB(+2000)"], ["Black", "Silver", "Light Green"]),
    ("Samsung", "Galaxy A15", 21500, ["128GB", "256GB(+3500)"], ["Black", "Blue", "Light Blue"]),
    ("Samsung", "Galaxy A25 5G", 31000, ["128GB", "256GB(+4000)"], ["Black", "Blue", "Yellow"]),
    ("Samsung", "Galaxy A35 5G", 42000, ["128GB", "256GB(+5000)"], ["Awesome Navy", "Awesome Lilac"]),
    ("Samsung", "Galaxy A55 5G", 54000, ["128GB", "256GB(+6000)"], ["Awesome Navy", "Awesome Iceblue"]),
    ("Samsung", "Galaxy S24", 115000, ["256GB", "512GB(+15000)"], ["Onyx Black", "Marble Grey", "Amber Yellow"]),
    ("Samsung", "Galaxy Z Flip6", 145000, ["256GB"], ["Silver Shadow", "Blue", "Mint"]),
    ("Tecno", "Spark 20", 15500, ["128GB"], ["Gravity Black", "Cyber White", "Neon Gold"]),
    ("Tecno", "Spark 20 Pro", 21000, ["256GB"], ["Moonlit Black", "Frosty Ivory"]),
    ("Tecno", "Camon 30", 32000, ["256GB", "512GB(+4000)"], ["Basaltic Dark", "Uyuni Salt White"]),
    ("Tecno", "Pova 6 Pro", 29500, ["256GB"], ["Meteorite Grey", "Comet Green"]),
    ("Infinix", "Hot 40i", 14000, ["128GB", "256GB(+2000)"], ["Starlit Black", "Palm Blue"]),
    ("Infinix", "Hot 40 Pro", 21500, ["256GB"], ["Starlit Black", "Horizon Gold"]),
    ("Infinix", "Note 40", 28500, ["256GB"], ["Obsidian Black", "Vintage Green"]),
    ("Infinix", "Smart 8", 11000, ["64GB", "128GB(+1500)"], ["Timber Black", "Shiny Gold"]),
    ("Xiaomi", "Redmi 13C", 14500, ["128GB", "256GB(+2500)"], ["Midnight Black", "Navy Blue"]),
    ("Xiaomi", "Redmi Note 13", 25500, ["128GB", "256GB(+3000)"], ["Midnight Black", "Ice Blue"]),
    ("Xiaomi", "Redmi Note 13 Pro", 36500, ["256GB"], ["Midnight Black", "Lavender Purple"]),
    ("Apple", "iPhone 13", 82000, ["128GB", "256GB(+12000)"], ["Midnight", "Starlight", "Blue"]),
    ("Apple", "iPhone 14", 95000, ["128GB", "256GB(+13000)"], ["Midnight", "Purple", "Blue"]),
    ("Apple", "iPhone 15", 118000, ["128GB", "256GB(+15000)"], ["Black", "Pink", "Blue"]),
    ("Apple", "iPhone 15 Pro Max", 185000, ["256GB", "512GB(+25000)"], ["Natural Titanium", "Black Titanium"]),
    ("Oppo", "A18", 14800, ["128GB"], ["Glowing Black", "Glowing Blue"]),
    ("Oppo", "Reno 11F 5G", 39000, ["256GB"], ["Palm Green", "Ocean Blue"]),
    ("Vivo", "Y17s", 15500, ["128GB"], ["Glitter Purple", "Forest Green"]),
    ("Vivo", "V30", 52000, ["256GB"], ["Noble Black", "Peacock Green"]),
    ("Nokia", "G42 5G", 27000, ["128GB"], ["So Grey", "So Purple"]),
    ("itel", "A70", 9800, ["64GB", "128GB(+1200)"], ["Starlish Black", "Field Green"]),
    ("itel", "S24", 15000, ["128GB"], ["Starry Black", "Dawn White"]),
]
FEATURE_PHONES = [
    ("Nokia", "105 (2023)", 2600),
    ("Nokia", "110 4G", 4200),
    ("Nokia", "3310 4G", 6500),
    ("itel", "it2160", 1500),
    ("itel", "it5606", 2100),
    ("Tecno", "T301", 1800),
    ("Tecno", "T528", 2900),
    ("Samsung", "Guru Music 2", 3200),
]
TABLETS = [
    ("Samsung", "Galaxy Tab A9", 23500, "64GB|128GB(+4000)"),
    ("Samsung", "Galaxy Tab A9+", 34000, "64GB"),
    ("Samsung", "Galaxy Tab S9 FE", 62000, "128GB"),
    ("Lenovo", "Tab M10 (3rd Gen)", 21000, "32GB|64GB(+2500)"),
    ("Apple", "iPad 10th Gen", 72000, "64GB|256GB(+22000)"),
    ("Tecno", "Megapad 10", 19500, "128GB"),
    ("Xiaomi", "Redmi Pad SE", 26500, "128GB"),
    ("Modio", "M32 Kids Tablet", 6500, "16GB"),
]
LAPTOPS = [
    ("HP", "250 G9 Core i3 8GB/256GB", 52000),
    ("HP", "250 G10 Core i5 8GB/512GB", 68000),
    ("HP", "ProBook 450 G10 Core i7 16GB/512GB", 115000),
    ("HP", "Pavilion 15 Core i5 16GB/512GB", 89000),
    ("Lenovo", "IdeaPad 3 Core i3 8GB/256GB", 49500),
    ("Lenovo", "IdeaPad Slim 5 Ryzen 7 16GB/512GB", 95000),
    ("Lenovo", "ThinkPad E14 Core i5 16GB/512GB", 105000),
    ("Dell", "Inspiron 15 3520 Core i5 8GB/512GB", 72000),
    ("Dell", "Latitude 5440 Core i5 16GB/512GB", 118000),
    ("Asus", "Vivobook 15 Core i3 8GB/512GB", 54000),
    ("Asus", "TUF Gaming F15 Core i5 RTX 3050", 125000),
    ("Apple", "MacBook Air M2 13-inch 8GB/256GB", 145000),
    ("Apple", "MacBook Air M3 13-inch 16GB/512GB", 195000),
    ("Acer", "Aspire 3 Celeron 4GB/128GB", 32000),
    ("HP", "Chromebook 14 Celeron 4GB/64GB", 28000),
]
TVS = [
    ("Hisense", 32, "HD Smart TV", 17500),
    ("Hisense", 43, "Full HD Smart TV", 29500),
    ("Hisense", 55, "4K UHD Smart TV", 52000),
    ("Hisense", 65, "4K QLED Smart TV", 89000),
    ("TCL", 32, "Android Smart TV", 18500),
    ("TCL", 43, "Google TV", 33000),
    ("TCL", 55, "4K QLED Google TV", 61000),
    ("Samsung", 43, "Crystal UHD Smart TV", 45000),
    ("Samsung", 55, "Crystal UHD Smart TV", 68000),
    ("Samsung", 65, "Neo QLED Smart TV", 165000),
    ("Vitron", 32, "Smart Android TV", 13500),
    ("Vitron", 43, "Frameless Smart TV", 24500),
    ("Skyworth", 40, "Android Smart TV", 22500),
    ("LG", 50, "4K UHD webOS TV", 58000),
    ("Sony", 55, "Bravia 4K Google TV", 98000),
]
SPEAKERS = [
    ("JBL", "Go 3 Portable Speaker", 5200, "Black|Blue|Red"),
    ("JBL", "Flip 6 Portable Speaker", 14500, "Black|Blue|Teal"),
    ("JBL", "Charge 5 Speaker", 21000, "Black|Blue"),
    ("JBL", "PartyBox Encore Essential", 38000, ""),
    ("Sony", "SRS-XB13 Speaker", 6200, "Black|Light Blue"),
    ("Oraimo", "SoundGo 3 Speaker", 3400, "Black"),
    ("Vitron", "V636 3.1CH Subwoofer System", 9500, ""),
    ("Vitron", "V527 2.1CH Subwoofer", 6800, ""),
    ("Sayona", "SHT-1240BT Home Theatre", 11500, ""),
    ("Samsung", "HW-C450 Soundbar", 28500, ""),
    ("LG", "SP2 Soundbar", 19500, ""),
    ("Amtec", "AM-007 Tower Speaker", 12500, ""),
]
AUDIO = [
    ("Oraimo", "FreePods 4 ANC Earbuds", 4500, "Black|White"),
    ("Oraimo", "FreePods Lite Earbuds", 2600, "Black|White|Blue"),
    ("Oraimo", "Necklace 4 Neckband Earphones", 1800, "Black"),
    ("Oraimo", "BoomPop 2 Headphones", 3500, "Black|Blue"),
    ("Samsung", "Galaxy Buds FE", 11500, "Graphite|White"),
    ("Samsung", "Galaxy Buds2 Pro", 21000, "Graphite|White|Bora Purple"),
    ("Apple", "AirPods (3rd gen)", 28000, ""),
    ("Apple", "AirPods Pro (2nd gen)", 38500, ""),
    ("JBL", "Tune 520BT Headphones", 7500, "Black|Blue|White"),
    ("JBL", "Wave Buds", 6500, "Black|Blue"),
    ("Sony", "WH-1000XM5 Headphones", 52000, "Black|Silver"),
    ("Sony", "WF-C500 Earbuds", 9500, "Black|White"),
    ("Xiaomi", "Redmi Buds 5", 4200, "Black|White"),
    ("Infinix", "XE23 Wired Earphones", 450, "Black|White"),
    ("Samsung", "Type-C Wired Earphones", 1800, "Black|White"),
    ("Apple", "EarPods (USB-C)", 3500, ""),
]
CHARGERS = [
    ("Oraimo", "18W Fast Charger (USB-A)", 950),
    ("Oraimo", "33W Fast Charger (USB-C)", 1900),
    ("Samsung", "25W Super Fast Charger", 2800),
    ("Samsung", "45W Super Fast Charger", 4800),
    ("Apple", "20W USB-C Power Adapter", 3800),
    ("Anker", "Nano 30W Charger", 3500),
    ("Anker", "PowerPort 65W GaN Charger", 6500),
    ("Tecno", "18W Flash Charger", 900),
    ("Infinix", "33W Charger", 1500),
    ("Xiaomi", "67W Turbo Charger", 3200),
    ("Oraimo", "Dual USB Car Charger", 1200),
    ("HP", "65W Laptop Charger (Blue Pin)", 2800),
    ("Dell", "65W Laptop Charger (Small Pin)", 2900),
    ("Lenovo", "65W USB-C Laptop Charger", 4200),
]
CABLES = [
    ("Oraimo", "USB-C Cable 1m", 450),
    ("Oraimo", "USB-C to USB-C Cable 1m", 650),
    ("Oraimo", "Micro USB Cable 1m", 350),
    ("Oraimo", "Lightning Cable 1m", 850),
    ("Anker", "PowerLine III USB-C Cable 1.8m", 1500),
    ("Samsung", "USB-C to USB-C Cable 1m", 1200),
    ("Apple", "USB-C to Lightning Cable 1m", 2800),
    ("Apple", "USB-C Woven Charge Cable 1m", 2900),
    ("Generic", "HDMI Cable 1.5m", 600),
    ("Generic", "HDMI Cable 5m", 1200),
    ("Ugreen", "USB-C Hub 5-in-1", 4500),
    ("Generic", "3-in-1 Charging Cable", 700),
]
POWER_BANKS = [
    ("Oraimo", "Traveler 10000mAh Power Bank", 1800),
    ("Oraimo", "Traveler 20000mAh Power Bank", 2900),
    ("Oraimo", "Toast 27000mAh Power Bank", 3900),
    ("Anker", "PowerCore 10000mAh", 3800),
    ("Anker", "PowerCore 20000mAh", 5800),
    ("Xiaomi", "Redmi 20000mAh Power Bank", 3200),
    ("Samsung", "10000mAh 25W Power Bank", 4500),
    ("Tecno", "10000mAh Power Bank", 1600),
    ("Infinix", "20000mAh Power Bank", 2600),
    ("Romoss", "PAC20 20000mAh", 2400),
]
WATCHES = [
    ("Oraimo", "Watch 4 Plus", 4800, "Black|Grey"),
    ("Oraimo", "Watch 2R", 3200, "Black"),
    ("Samsung", "Galaxy Watch6 40mm", 32000, "Graphite|Gold"),
    ("Samsung", "Galaxy Watch FE", 24500, "Black|Silver"),
    ("Apple", "Watch SE (2nd gen) 40mm", 38000, "Midnight|Starlight"),
    ("Apple", "Watch Series 9 41mm", 58000, "Midnight|Pink"),
    ("Xiaomi", "Smart Band 8", 4800, "Black"),
    ("Xiaomi", "Redmi Watch 4", 9500, "Obsidian Black|Silver Grey"),
    ("Huawei", "Band 9", 6500, "Black|White"),
    ("Amazfit", "Bip 5", 11000, "Soft Black|Cream White"),
]
MEMORY = [
    ("SanDisk", "Ultra microSD 32GB", 800),
    ("SanDisk", "Ultra microSD 64GB", 1200),
    ("SanDisk", "Ultra microSD 128GB", 1900),
    ("SanDisk", "Ultra microSD 256GB", 3500),
    ("Kingston", "Canvas Select microSD 64GB", 1000),
    ("SanDisk", "Cruzer Blade Flash Disk 32GB", 700),
    ("SanDisk", "Ultra Flair Flash Disk 64GB", 1300),
    ("Kingston", "DataTraveler Flash Disk 128GB", 2200),
    ("Seagate", "Expansion 1TB External Hard Drive", 8500),
    ("Seagate", "Expansion 2TB External Hard Drive", 11500),
    ("Samsung", "T7 500GB Portable SSD", 12500),
    ("WD", "Elements 1TB External Hard Drive", 8200),
]
NETWORK = [
    ("TP-Link", "TL-WR840N Wi-Fi Router", 2800),
    ("TP-Link", "Archer C6 Dual-Band Router", 5500),
    ("TP-Link", "Deco E4 Mesh (2-pack)", 12500),
    ("Huawei", "B311 4G Router", 7500),
    ("Huawei", "E5576 4G MiFi", 4500),
    ("ZTE", "MF927U 4G MiFi", 3900),
    ("TP-Link", "TL-WN725N USB Wi-Fi Adapter", 1200),
    ("TP-Link", "TL-SF1008D 8-Port Switch", 1800),
    ("Tenda", "N301 Wireless Router", 2200),
    ("Mercusys", "MW325R Router", 2000),
]
GAMING = [
    ("Sony", "PlayStation 5 Slim Disc Edition", 78000),
    ("Sony", "PlayStation 5 DualSense Controller", 9500),
    ("Sony", "PlayStation 4 Slim 500GB (Refurbished)", 38000),
    ("Microsoft", "Xbox Series S 512GB", 55000),
    ("Microsoft", "Xbox Wireless Controller", 8500),
    ("Nintendo", "Switch OLED", 52000),
    ("Sony", "EA Sports FC 25 (PS5)", 8500),
    ("Sony", "Call of Duty Black Ops 6 (PS5)", 9500),
    ("Generic", "PS5 Controller Charging Dock", 2800),
    ("Redragon", "K552 Mechanical Gaming Keyboard", 5500),
    ("Redragon", "M711 Cobra Gaming Mouse", 2500),
    ("HP", "X1000 Wired Mouse", 650),
]
GADGETS = [
    ("Generic", "Car Phone Holder (Air Vent)", 650),
    ("Generic", "Magnetic Car Phone Mount", 1200),
    ("Generic", "Foldable Phone Stand", 450),
    ("Generic", "10-inch LED Ring Light with Tripod", 2500),
    ("Generic", "18-inch LED Ring Light with Stand", 6500),
    ("Generic", "Selfie Stick Tripod with Remote", 1500),
    ("Generic", "Phone Gimbal Stabilizer", 7500),
    ("Boya", "BY-M1 Lavalier Microphone", 1500),
    ("Generic", "Wireless Lavalier Mic (USB-C)", 2800),
    ("Generic", "Laptop Stand Aluminium", 2200),
    ("Generic", "Laptop Backpack 15.6-inch", 2800),
    ("Generic", "Laptop Sleeve 14-inch", 1200),
]


def phone_rows(rng: random.Random) -> list[dict[str, str]]:
    rows = []
    for n, (brand, model, price, storages, colours) in enumerate(PHONES, start=1):
        stock = rng.choice([2, 3, 5, 8, 12, 15, 20, 25]) if n % 9 else 0
        rows.append(
            {
                "sku": f"PH-{brand[:3].upper()}-{n:03d}",
                "name": f"{brand} {model}",
                "category": "Smartphones",
                "price": str(price),
                "stock": str(stock),
                "type": "product",
                "brand": brand,
                "variants": f"colour={'|'.join(colours)};storage={'|'.join(storages)}",
                "tags": "smartphone|android" if brand != "Apple" else "smartphone|ios",
                "description": f"{brand} {model} smartphone, {storages[0].split('(')[0]} base storage, dual SIM where "
                f"supported, 12-month warranty. Comes with charging cable.",
            }
        )
    return rows


def build_catalog() -> list[dict[str, str]]:
    rng = random.Random(20261123)
    rows = phone_rows(rng)

    def add(prefix: str, items: list, category: str, describe, variants=None, tags: str = "") -> None:
        for n, entry in enumerate(items, start=1):
            brand, name, price = entry[0], entry[1], entry[2]
            stock = rng.choice([1, 3, 4, 6, 10, 15, 20, 30, 40]) if n % 7 else 0
            row = {
                "sku": f"{prefix}-{n:03d}",
                "name": f"{brand} {name}" if brand != "Generic" else name,
                "category": category,
                "price": str(price),
                "stock": str(stock),
                "type": "product",
                "brand": brand,
                "variants": variants(entry) if variants else "",
                "tags": tags,
                "description": describe(entry),
            }
            rows.append(row)

    add(
        "FP",
        FEATURE_PHONES,
        "Feature Phones",
        lambda e: f"{e[0]} {e[1]} basic phone with long battery life, FM radio and torch.",
        variants=lambda e: "colour=Black|Blue",
        tags="kabambe|basic phone",
    )
    add(
        "TB",
        TABLETS,
        "Tablets",
        lambda e: f"{e[0]} {e[1]} tablet for school, work and video calls.",
        variants=lambda e: f"storage={e[3]}",
        tags="tablet",
    )
    add(
        "LP",
        LAPTOPS,
        "Laptops",
        lambda e: f"{e[0]} {e[1]} laptop with Windows or macOS as shipped by the maker, 1-year warranty.",
        tags="laptop|computer",
    )
    add(
        "TV",
        [(b, f'{s}" {d}', p) for b, s, d, p in TVS],
        "Televisions",
        lambda e: f"{e[0]} {e[1]} with free-to-air decoder, HDMI and USB inputs; wall bracket sold separately.",
        tags="tv|smart tv",
    )
    add(
        "SP",
        SPEAKERS,
        "Speakers & Sound",
        lambda e: f"{e[0]} {e[1]} with Bluetooth connectivity.",
        variants=lambda e: f"colour={e[3]}" if e[3] else "",
        tags="speaker|bluetooth",
    )
    add(
        "AU",
        AUDIO,
        "Earphones & Headphones",
        lambda e: f"{e[0]} {e[1]}; clear sound for calls and music.",
        variants=lambda e: f"colour={e[3]}" if e[3] else "",
        tags="earphones|audio",
    )
    add(
        "CH", CHARGERS, "Chargers & Cables", lambda e: f"{e[0]} {e[1]}, original with 6-month warranty.", tags="charger"
    )
    add("CB", CABLES, "Chargers & Cables", lambda e: f"{e[0]} {e[1]} for charging and data.", tags="cable")
    add(
        "PB",
        POWER_BANKS,
        "Power Banks",
        lambda e: f"{e[0]} {e[1]} with fast charging and LED indicator.",
        variants=lambda e: "colour=Black|White",
        tags="powerbank",
    )
    add(
        "WT",
        WATCHES,
        "Smartwatches & Wearables",
        lambda e: f"{e[0]} {e[1]} fitness tracking, notifications and heart rate.",
        variants=lambda e: f"colour={e[3]}",
        tags="smartwatch|fitness",
    )
    add(
        "MS",
        MEMORY,
        "Memory & Storage",
        lambda e: f"{e[0]} {e[1]}; genuine with manufacturer warranty.",
        tags="storage",
    )
    add("GM", GAMING, "Gaming", lambda e: f"{e[0]} {e[1]}; genuine, with warranty.", tags="gaming|console")
    add(
        "GD",
        GADGETS,
        "Phone Holders & Creator Gear",
        lambda e: f"{e[1]} for content creators, drivers and desks.",
        tags="creator|holder",
    )
    add("NW", NETWORK, "Networking", lambda e: f"{e[0]} {e[1]} for home and office internet.", tags="wifi|internet")

    # accessories for every smartphone model: cases and screen protectors
    for n, (brand, model, *_rest) in enumerate(PHONES, start=1):
        full = f"{brand} {model}"
        for k, (kind, price, colours) in enumerate(
            [
                ("Silicone Case", 650, "Black|Navy|Red|Pink"),
                ("Clear Shockproof Case", 550, ""),
                ("Leather Flip Cover", 1200, "Black|Brown"),
            ],
            start=1,
        ):
            stock = rng.choice([5, 10, 20, 35]) if (n + k) % 8 else 0
            rows.append(
                {
                    "sku": f"CS-{n:03d}-{k}",
                    "name": f"{full} {kind}",
                    "category": "Phone Cases & Covers",
                    "price": str(price + (300 if brand == "Apple" else 0)),
                    "stock": str(stock),
                    "type": "product",
                    "brand": "Generic",
                    "variants": f"colour={colours}" if colours else "",
                    "tags": f"case|cover|{brand.lower()}",
                    "description": f"{kind} made to fit the {full}, with precise cut-outs for camera and ports.",
                }
            )
        rows.append(
            {
                "sku": f"SG-{n:03d}",
                "name": f"{full} Tempered Glass Screen Protector",
                "category": "Screen Protectors",
                "price": "500" if brand != "Apple" else "800",
                "stock": str(rng.choice([10, 25, 50]) if n % 6 else 0),
                "type": "product",
                "brand": "Generic",
                "variants": "",
                "tags": f"screen protector|{brand.lower()}",
                "description": f"9H tempered glass for the {full}; free fitting at our shop.",
            }
        )
    return rows


KB_RETURNS = [
    ("Returns and Refunds Policy", None),
    (
        "Who can return an item",
        "You can return an item within 7 days of delivery or pickup if it is faulty, damaged on "
        "arrival, or not what you ordered. Bring or send the item with its original box, accessories and the order "
        "reference (for example ORD-7F3K2).",
    ),
    (
        "Items we cannot take back",
        "Opened earphones and earbuds (for hygiene), screen protectors that have been fitted, "
        "memory cards that have been used, and items damaged by water, drops or unauthorised repair cannot be "
        "returned.",
    ),
    (
        "How refunds are paid",
        "Approved refunds are paid back to the M-Pesa number or card that paid for the order within "
        "3 working days of us receiving the item. Delivery fees are refunded only when the item was faulty or wrong.",
    ),
    (
        "Exchanges",
        "If you prefer, we can exchange a faulty item for the same model, or for another item of equal value. "
        "If the new item costs more you pay the difference.",
    ),
    (
        "How to start a return",
        "Reply RETURN on WhatsApp with your order reference, or visit our shop on Moi Avenue. A "
        "person from our team will confirm within one working day.",
    ),
]
KB_WARRANTY = [
    ("Warranty Information", None),
    (
        "Warranty periods",
        "Smartphones, tablets, laptops and televisions carry a 12-month manufacturer warranty. "
        "Smartwatches, speakers and headphones carry 6 months. Chargers, cables and power banks carry 6 months. Cases "
        "and screen protectors have no warranty.",
    ),
    (
        "What the warranty covers",
        "The warranty covers manufacturing faults such as a phone that will not charge, a dead "
        "pixel line on a TV, or a speaker that stops pairing. It does not cover cracked screens, liquid damage, or "
        "damage "
        "from unofficial repairs.",
    ),
    (
        "How to claim",
        "Bring the item and your order reference to our shop on Moi Avenue. We test it the same day and "
        "send it to the brand's service centre when needed. Repairs under warranty usually take 7 to 14 days.",
    ),
    (
        "Apple and Samsung devices",
        "Apple and Samsung devices can also be serviced directly at their authorised "
        "service centres in Nairobi with the receipt we send you.",
    ),
]
KB_DELIVERY = """# Delivery and Pickup

## Delivery zones and fees
- Nairobi CBD: KES 150, same day for orders paid before 4pm.
- Westlands, Kilimani, Upper Hill and Parklands (Nairobi West zone): KES 300, same day or next morning.
- Eastlands (Buruburu, Donholm, Umoja, Embakasi, Kayole): KES 350, next day.
- Thika Road (Kasarani, Roysambu, Githurai, Ruiru): KES 400, next day.
- Rest of Kenya (by courier to your town): KES 600, 2 to 3 days.

## Pickup
You can pick up your order free of charge at our shop on Moi Avenue, Nairobi CBD, Monday to Saturday 8am to 7pm.
Orders are usually ready for pickup within 2 hours of payment.

## How delivery works
Our rider calls you before arriving. Please have your order reference ready. Delivery happens only after the order
is paid. You can track your order by asking "where is my order" on WhatsApp.

## Missed deliveries
If the rider cannot reach you, we try again the next working day at no extra cost. After two missed attempts the
order returns to the shop for pickup.
"""
KB_PAYMENT = """# Payment Help

## Ways to pay
We accept M-Pesa (a prompt on your phone, or Paybill), and card or other methods through a secure PesaPal link.

## Paying with the M-Pesa prompt
When you confirm your order we send an M-Pesa prompt to your phone. Enter your M-Pesa PIN to approve it. If the
prompt does not appear within a minute, make sure your phone is on and has signal, then ask us to send it again.

## Paying with Paybill
Go to M-Pesa, Lipa na M-Pesa, Pay Bill. Enter our business number, use your order reference as the account number,
and enter the exact amount due. You will receive an SMS from M-Pesa and a WhatsApp confirmation from us.

## Card payments
Ask for a card payment link. The link opens PesaPal's secure page where you can pay with Visa, Mastercard or other
options. We never ask for your card number on WhatsApp.

## I paid but did not get a confirmation
Payments usually confirm within a minute. If you paid and have not heard from us after 10 minutes, reply with your
M-Pesa confirmation code and a person from our team will check it for you.
"""
KB_ABOUT = """About Duka Bora Electronics

Who we are
Duka Bora Electronics sells genuine phones, laptops, TVs and accessories in Nairobi since 2016.

Opening hours
Monday to Saturday 8am to 7pm, Sunday 10am to 4pm. Closed on public holidays.

Location
Our shop is on Moi Avenue, opposite the Kenya National Archives, in Nairobi CBD.

Contact
Call or WhatsApp us on 0700 000 001. We offer free fitting of screen protectors bought from us.
"""


def write_pdf(path: Path, blocks: list[tuple[str, str | None]]) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_creation_date(__import__("datetime").datetime(2026, 1, 15, tzinfo=__import__("datetime").UTC))
    pdf.set_title(blocks[0][0])
    pdf.add_page()
    for heading, body in blocks:
        if body is None:
            pdf.set_font("Helvetica", "B", 16)
            pdf.multi_cell(0, 10, heading, new_x="LMARGIN", new_y="NEXT")
            continue
        pdf.set_font("Helvetica", "B", 12)
        pdf.multi_cell(0, 8, heading, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 11)
        pdf.multi_cell(0, 6, body, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    pdf.output(str(path))


def write_docx(path: Path, blocks: list[tuple[str, str | None]]) -> None:
    from docx import Document

    doc = Document()
    doc.core_properties.title = blocks[0][0]
    for heading, body in blocks:
        if body is None:
            doc.add_heading(heading, level=0)
        else:
            doc.add_heading(heading, level=1)
            doc.add_paragraph(body)
    doc.save(str(path))


def main() -> None:
    rows = build_catalog()
    columns = ["sku", "name", "category", "price", "stock", "description", "type", "brand", "variants", "tags"]
    with (SHOP / "catalog.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    write_pdf(SHOP / "kb" / "policy" / "returns-policy.pdf", KB_RETURNS)
    write_docx(SHOP / "kb" / "policy" / "warranty.docx", KB_WARRANTY)
    (SHOP / "kb" / "faq" / "delivery.md").write_text(KB_DELIVERY, encoding="utf-8")
    (SHOP / "kb" / "faq" / "payment-help.md").write_text(KB_PAYMENT, encoding="utf-8")
    (SHOP / "kb" / "doc" / "about-us.txt").write_text(KB_ABOUT, encoding="utf-8")
    print(f"{len(rows)} catalog rows in {len({r['category'] for r in rows})} categories")


if __name__ == "__main__":
    main()
